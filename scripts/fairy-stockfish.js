// Fairy-Stockfish (the WebAssembly build from the npm package fairy-stockfish-nnue.wasm) as a
// UCI engine on standard input and output, with a variant definition file loaded into its
// file system: node fairy-stockfish.js VARIANTS.ini
//
// Node's global fetch makes the Emscripten loader try to fetch the .wasm file by URL; without
// it, the loader reads the file from disk.
delete globalThis.fetch;
const fs = require("fs");
const path = require("path");
const readline = require("readline");

const dir = process.env.KOMA_FAIRY_DIR || path.join(__dirname, "..", ".fairy");
const Stockfish = require(path.join(dir, "node_modules", "fairy-stockfish-nnue.wasm", "stockfish.js"));

(async () => {
  const engine = await Stockfish();
  const variants = process.argv[2];
  if (variants) {
    engine.FS.writeFile("/variants.ini", fs.readFileSync(variants));
    engine.postMessage("setoption name VariantPath value /variants.ini");
  }
  const input = readline.createInterface({ input: process.stdin });
  for await (const line of input) {
    if (line.trim() === "quit") break;
    engine.postMessage(line);
  }
  engine.postMessage("quit");
})();

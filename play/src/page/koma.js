(() => {
  'use strict';

  // ===================================================================== helpers

  const $ = (id) => document.getElementById(id);

  /** A new element with an optional class and text (text is always set as textContent). */
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : '');
  const opposite = (c) => (c === 'black' ? 'white' : 'black');
  const signed = (x, digits = 2) => (x >= 0 ? '+' : '\u2212') + Math.abs(x).toFixed(digits);
  const pct = (x) => `${Math.round(x * 100)}%`;

  /** Whether the array `a` starts with the array `prefix`. */
  function startsWith(a, prefix) {
    if (a.length < prefix.length) return false;
    for (let i = 0; i < prefix.length; i++) if (a[i] !== prefix[i]) return false;
    return true;
  }
  const sameClicks = (a, b) => a.length === b.length && startsWith(a, b);

  /** Square name of file index f and rank index r (both from 0): "a1", "s19". */
  const squareName = (f, r) => String.fromCharCode(97 + f) + (r + 1);

  /** Font size of a piece label as a fraction of the square, shrinking with its length. */
  const fontFactor = (len) => Math.min(0.6, 1.3 / (len + 1));

  // ===================================================================== app object

  /** The page's one global: the current state and the move being entered. */
  const App = {
    state: null,        // the last state from the server
    path: [],           // clicks of the move being entered
    pending: null,      // null, or what the page waits for: 'engine' | 'request'
    boardKey: '',       // files x ranks x orientation the board elements were built for
    squares: new Map(), // square name -> square element
    handKeys: { top: '', bottom: '' },
    promo: null,        // resolver of the open promotion dialog
    initialized: false, // controls filled from the first state
    pieceInfo: new Map(), // piece ID -> {label, name, promoted}, from the state
    labelNames: new Map(), // label -> name, for the move list
    pollTimer: 0,
    view: null,         // null: the game now; else the position under review {ply, position, last}
    pieceRef: null,     // the variant's piece reference (GET /api/pieces)
    pieceRefLoading: false,
    pieceShown: null,   // ID of the piece the piece panel shows
    clockAt: 0,         // performance.now() when the state's clock was read
    clockTimer: 0,
    clockAsked: false,  // the state was asked for once the clock ran out
  };

  // ===================================================================== API

  /** Sends a request; resolves to the JSON answer, rejects with the server's error text. */
  async function api(method, path, body) {
    const opts = { method, cache: 'no-store', headers: {} };
    if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, opts);
    } catch (e) {
      throw new Error(`Cannot reach the server (${e.message})`);
    }
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
    if (!res.ok) {
      const msg = data && typeof data.error === 'string' ? data.error : (text || res.statusText);
      throw new Error(`${msg} (HTTP ${res.status})`);
    }
    if (!data || typeof data !== 'object') throw new Error('The server sent no game state');
    return data;
  }

  /** The engine budget from the controls: only the non-zero fields ({} = server default). */
  function budget() {
    const body = {};
    const sims = parseInt($('budget-sims').value, 10);
    const millis = parseInt($('budget-millis').value, 10);
    if (sims > 0) body.sims = sims;
    if (millis > 0) body.millis = millis;
    return body;
  }

  function setError(msg) { $('error').textContent = msg ? `Error: ${msg}` : ''; }

  /** Takes a new state from the server (a successful answer): clears the error and redraws. */
  function accept(state) {
    App.state = state;
    App.path = [];
    App.clockAt = performance.now();
    App.clockAsked = false;
    // A review stays open while the game still has the position it shows.
    if (App.view && App.view.ply >= state.ply) App.view = null;
    setError('');
    if (!App.initialized) {
      App.initialized = true;
      $('new-side').value = state.human === 'white' ? 'white' : 'black';
      if (state.defaults) {
        $('budget-sims').value = String(state.defaults.sims || 0);
        $('budget-millis').value = String(state.defaults.millis || 0);
      }
    }
    render();
  }

  /**
   * Runs one user action (a chain of requests) unless another one is in progress. While it
   * runs the page shows it is busy; an error ends the chain and is shown.
   */
  async function run(kind, fn) {
    if (App.pending) return;
    App.pending = kind;
    renderStatus();
    try {
      await fn();
    } catch (e) {
      setError(e.message);
      await resync();
    } finally {
      App.pending = null;
      render();
    }
  }

  /** Re-reads the state after an error, quietly (the error shown stays). */
  async function resync() {
    try {
      const s = await api('GET', '/api/state');
      App.state = s;
      App.path = [];
    } catch (_) { /* keep what we have */ }
  }

  /** Whether the engine is to move next in `s` (the game goes on and it is not our turn). */
  const enginesTurn = (s) => !s.outcome && s.legal.length > 0 && s.side_to_move !== s.human;

  /** Asks the engine to play for the side to move. */
  async function engineMove() {
    App.pending = 'engine';
    renderStatus();
    accept(await api('POST', '/api/engine', budget()));
  }

  /** If it is now the engine's turn, lets it move. */
  async function engineReply() {
    if (App.state && enginesTurn(App.state)) await engineMove();
  }

  const playMove = (text) => run('request', async () => {
    accept(await api('POST', '/api/move', { move: text }));
    await engineReply();
  });

  /** The time control chosen for the next game. */
  function clockChoice() {
    const [main, byo] = $('new-clock').value.split(',').map((x) => parseInt(x, 10) || 0);
    return { main_secs: main, byoyomi_secs: byo };
  }

  const newGame = () => run('request', async () => {
    App.view = null;
    accept(await api('POST', '/api/new', { human: $('new-side').value, clock: clockChoice() }));
    await engineReply();
  });

  const undo = () => run('request', async () => {
    accept(await api('POST', '/api/undo', {}));
  });

  /** "Engine, move": the engine plays for the side to move, then answers if that was us. */
  const engineButton = () => run('engine', async () => {
    await engineMove();
    await engineReply();
  });

  /** While the server says it is thinking (another request), polls until it is done. */
  function pollWhileThinking() {
    clearTimeout(App.pollTimer);
    if (!App.state || !App.state.thinking || App.pending) return;
    App.pollTimer = setTimeout(async () => {
      try {
        const s = await api('GET', '/api/state');
        if (!App.pending) accept(s);
      } catch (e) {
        setError(e.message);
      }
      pollWhileThinking();
    }, 500);
  }

  async function load() {
    try {
      accept(await api('GET', '/api/state'));
    } catch (e) {
      setError(e.message);
      $('status').textContent = 'No connection to the server';
      document.body.dataset.status = 'idle';
      return;
    }
    if (App.state.thinking) pollWhileThinking();
    else if (enginesTurn(App.state)) run('engine', engineReply);
  }

  // ===================================================================== move entry

  /**
   * What a click on `x` (a square name or "@ID") does with `path` in `legal`; pure, so it can
   * be tested without a page. Returns one of:
   *   {kind: 'extend', path}              the path grows (highlight the next clicks),
   *   {kind: 'finish', moves}             complete moves (several: they differ by promotion),
   *   {kind: 'select', path}              a new path [x],
   *   {kind: 'clear'}                     nothing selected.
   */
  function decideClick(legal, path, x) {
    const ext = path.concat([x]);
    const cands = legal.filter((m) => startsWith(m.clicks, ext));
    if (cands.length > 0) {
      const complete = cands.filter((m) => m.clicks.length === ext.length);
      if (complete.length > 0 && complete.length === cands.length) {
        return { kind: 'finish', moves: complete };
      }
      return { kind: 'extend', path: ext };
    }
    if (path.length > 0 && x === path[path.length - 1]) {
      // Clicking the last click again: end the move here if it can end here, else deselect.
      const complete = legal.filter((m) => sameClicks(m.clicks, path));
      return complete.length > 0 ? { kind: 'finish', moves: complete } : { kind: 'clear' };
    }
    // A move can start at x only if x holds a piece (or hand piece) of the side to move.
    if (legal.some((m) => m.clicks[0] === x)) return { kind: 'select', path: [x] };
    return { kind: 'clear' };
  }

  /** Marks for the path in progress: what each square shows. Pure as well. */
  function pathMarks(legal, path) {
    const marks = { origin: path[0] || null, steps: new Set(), kill: new Set(), shot: new Set(),
                    next: new Set(), stop: null };
    if (path.length === 0) return marks;
    const cands = legal.filter((m) => startsWith(m.clicks, path));
    for (let i = 1; i < path.length; i++) {
      const sq = path[i];
      marks.steps.add(sq);
      if (cands.some((m) => m.shots.includes(sq))) marks.shot.add(sq);
      else if (cands.some((m) => m.kills.includes(sq))) marks.kill.add(sq);
    }
    let complete = false;
    for (const m of cands) {
      if (m.clicks.length > path.length) marks.next.add(m.clicks[path.length]);
      else complete = true;
    }
    if (complete && marks.next.size > 0) marks.stop = path[path.length - 1];
    return marks;
  }

  /** Whether the person may enter a move now. */
  function canClick() {
    const s = App.state;
    return !!s && !App.pending && !s.thinking && !s.outcome && !App.promo && !App.view &&
      s.side_to_move === s.human && s.legal.length > 0;
  }

  function onClick(x) {
    if (!canClick()) return;
    const d = decideClick(App.state.legal, App.path, x);
    if (d.kind === 'finish') {
      App.path = d.moves[0].clicks.slice();
      renderMarks();
      finish(d.moves);
      return;
    }
    App.path = d.kind === 'clear' ? [] : d.path;
    renderMarks();
  }

  /** Plays one of `moves` (same clicks), asking about promotion when they differ by it. */
  async function finish(moves) {
    let move = moves[0];
    if (moves.length > 1) {
      const yes = moves.find((m) => m.promotion === '+');
      const no = moves.find((m) => m.promotion !== '+');
      if (yes && no) {
        const choice = await askPromotion(yes, no);
        if (choice === null) { clearPath(); return; }
        move = choice ? yes : no;
      }
    }
    App.path = [];
    await playMove(move.text);
  }

  /** Shows the promotion dialog; resolves to true (promote), false (not) or null (cancel). */
  function askPromotion(yes, no) {
    $('promo-move').textContent = `${yes.text}  or  ${no.text}`;
    $('promo-overlay').hidden = false;
    $('promote-yes').focus();
    return new Promise((resolve) => { App.promo = resolve; });
  }

  function closePromotion(answer) {
    const resolve = App.promo;
    if (!resolve) return;
    App.promo = null;
    $('promo-overlay').hidden = true;
    resolve(answer);
  }

  function clearPath() {
    App.path = [];
    renderMarks();
  }

  // ===================================================================== drawing

  /** Square size in px for the window and board size (between 26 and 56). */
  function squareSize(files, ranks) {
    const panel = $('panel').getBoundingClientRect().width || 380;
    const coord = 20, frame = 2 * 4 + 2 * 2, pad = 2 * 12, rowH = 46, gaps = 2 * 6;
    const w = (window.innerWidth - panel - pad - 2 * coord - frame) / files;
    const h = (window.innerHeight - pad - 2 * rowH - gaps - 2 * coord - frame) / ranks;
    return Math.max(26, Math.min(56, Math.floor(Math.min(w, h))));
  }

  function sizeBoard() {
    const s = App.state;
    if (!s) return;
    const sq = squareSize(s.variant.files, s.variant.ranks);
    document.documentElement.style.setProperty('--sq', `${sq}px`);
  }

  /**
   * Builds the square elements (once per board size and orientation; later redraws only
   * update them, so references to them stay valid). The person's side is at the bottom:
   * for black rank 1 is at the bottom and file a on the left, for white the other way round.
   */
  function buildBoard(s) {
    const files = s.variant.files, ranks = s.variant.ranks, flip = s.human === 'white';
    const key = `${files}x${ranks}${flip ? 'w' : 'b'}`;
    if (App.boardKey === key) return;
    App.boardKey = key;
    const grid = $('grid');
    grid.style.gridTemplateColumns = `repeat(${files}, var(--sq))`;
    grid.replaceChildren();
    App.squares.clear();
    for (let row = 0; row < ranks; row++) {
      const r = flip ? row : ranks - 1 - row;
      for (let col = 0; col < files; col++) {
        const f = flip ? files - 1 - col : col;
        const name = squareName(f, r);
        const sq = el('div', 'sq');
        sq.dataset.square = name;
        grid.append(sq);
        App.squares.set(name, sq);
      }
    }
    const fileLabels = [], rankLabels = [];
    for (let col = 0; col < files; col++) fileLabels.push(String.fromCharCode(97 + (flip ? files - 1 - col : col)));
    for (let row = 0; row < ranks; row++) rankLabels.push(String(flip ? row + 1 : ranks - row));
    for (const id of ['coords-top', 'coords-bottom']) $(id).replaceChildren(...fileLabels.map((t) => el('span', '', t)));
    for (const id of ['coords-left', 'coords-right']) $(id).replaceChildren(...rankLabels.map((t) => el('span', '', t)));
  }

  /** A piece tile of kind `id`, owner `color`, showing the kind's label (a promoted form's
   *  own kind, in the promoted colour); rotated when it is the opponent's. */
  function pieceElement(id, color, s, inHand) {
    const info = App.pieceInfo.get(id) || { label: id, name: id, promoted: id.startsWith('+') };
    let cls = `piece ${color}`;
    if (info.promoted) cls += ' promoted';
    if (inHand) cls += ' in-hand';
    else if (s && color !== s.human) cls += ' opp';
    const p = el('div', cls);
    p.dataset.piece = id;
    p.style.setProperty('--f', String(fontFactor(info.label.length)));
    p.title = `${info.name} (${id})`;
    p.append(el('span', 'face', info.label));
    return p;
  }

  /** What the board shows: the game now, or the position under review. */
  function shown() {
    return App.view ? App.view.position : App.state;
  }

  /** Redraws everything from the state. */
  function render() {
    const s = App.state;
    if (!s) { renderStatus(); return; }
    App.pieceInfo = new Map((s.variant.pieces || []).map((p) => [p.id, p]));
    App.labelNames = new Map((s.variant.pieces || []).map((p) => [p.label, p.name]));
    buildBoard(s);
    sizeBoard();
    renderMarks();
    renderHeader(s);
    renderEvaluation(s);
    renderMoveList(s);
    renderStatus();
    renderClock();
    loadPieces(s);
    document.body.dataset.fen = s.fen;
    document.body.dataset.ply = String(s.ply);
    document.body.dataset.review = App.view ? String(App.view.ply) : '';
  }

  /** Redraws the squares and hands (pieces, last move, the path in progress). */
  function renderMarks() {
    const s = App.state;
    if (!s) return;
    const b = shown();
    const pieces = new Map(b.board.map((p) => [p.square, p]));
    const last = App.view ? App.view.last : (s.history.length ? s.history[s.history.length - 1] : null);
    const captured = new Set(last ? last.captured || [] : []);
    const checks = b.checks || { targets: [], checkers: [] };
    const targets = new Set(checks.targets), checkers = new Set(checks.checkers);
    const marks = pathMarks(s.legal, App.path);
    const live = canClick();
    const starts = new Set(live ? s.legal.map((m) => m.clicks[0]) : []);
    for (const [name, sq] of App.squares) {
      const p = pieces.get(name);
      const cls = ['sq'];
      if (last && (name === last.from || name === last.to)) cls.push('last');
      if (marks.steps.has(name)) cls.push('visited');
      if (marks.origin === name) cls.push('selected');
      if (live && (starts.has(name) || marks.next.has(name) || marks.stop === name)) cls.push('clickable');
      if (targets.has(name)) cls.push('in-check');
      if (checkers.has(name)) cls.push('checker');
      sq.className = cls.join(' ');
      sq.title = p ? '' : name;
      const kids = [];
      if (p) kids.push(pieceElement(p.piece, p.color, s, false));
      if (marks.kill.has(name)) kids.push(el('span', 'mark kill'));
      if (marks.shot.has(name)) kids.push(el('span', 'mark shot'));
      if (marks.next.has(name)) kids.push(el('span', p ? 'mark ring' : 'mark dot'));
      if (marks.stop === name) kids.push(el('span', 'mark stop'));
      if (captured.has(name)) kids.push(el('span', 'mark captured', '\u00d7'));
      sq.replaceChildren(...kids);
    }
    renderHands(s, b, starts);
  }

  /** The two hands: the opponent's above the board, the person's below. */
  function renderHands(s, b, starts) {
    const sides = { top: opposite(s.human), bottom: s.human };
    for (const where of ['top', 'bottom']) {
      const color = sides[where];
      const items = (b.hands && b.hands[color]) || [];
      const box = $(`hand-${where}`);
      box.classList.toggle('no-drops', !s.variant.drops && items.length === 0);
      // Rebuild only when the hand changed, so element references stay valid.
      const key = `${color}:${items.map((h) => `${h.id}=${h.count}`).join(',')}`;
      if (App.handKeys[where] !== key) {
        App.handKeys[where] = key;
        box.replaceChildren(...items.map((h) => {
          const e = el('div', 'hand-piece');
          e.dataset.hand = h.id;
          e.dataset.color = color;
          e.title = (App.pieceInfo.get(h.id) || { name: h.id }).name;
          e.append(pieceElement(h.id, color, s, true), el('span', 'count', `\u00d7${h.count}`));
          return e;
        }));
      }
      for (const e of box.children) {
        const click = `@${e.dataset.hand}`;
        e.classList.toggle('clickable', color === s.side_to_move && starts.has(click));
        e.classList.toggle('selected', color === s.side_to_move && App.path[0] === click);
      }
      const label = $(`${where}-label`);
      const who = color === s.human ? 'You' : 'Engine';
      label.querySelector('.who').textContent = `${who} \u00b7 ${cap(color)}`;
      label.classList.toggle('to-move', !s.outcome && b.side_to_move === color);
    }
  }

  function renderHeader(s) {
    const v = s.variant;
    $('variant-name').textContent = `${v.name} (${v.files}\u00d7${v.ranks})`;
    document.title = `koma play \u2014 ${v.name}`;
    const m = s.model;
    $('model-info').textContent = m ? `model ${m.path} \u00b7 step ${m.step}` : '';
    $('fen').textContent = s.fen;
  }

  /** The status line, "Check!" and the body's data-status. */
  function renderStatus() {
    const s = App.state;
    const st = $('status');
    let status;
    if (App.pending === 'engine' || (s && s.thinking)) {
      status = 'thinking';
      st.replaceChildren(el('span', 'spinner'), document.createTextNode('Engine thinking\u2026'));
    } else if (App.pending) {
      status = 'thinking';
      st.replaceChildren(el('span', 'spinner'), document.createTextNode('Please wait\u2026'));
    } else if (!s) {
      status = 'loading';   // before the first state arrives
      st.textContent = 'Loading\u2026';
    } else if (s.outcome) {
      status = 'over';
      st.textContent = `${s.outcome.text} \u2014 ${s.outcome.result}`;
    } else if (s.side_to_move === s.human) {
      status = 'idle';
      st.textContent = `Your move (${cap(s.side_to_move)})`;
    } else {
      status = 'idle';
      st.textContent = `Engine to move (${cap(s.side_to_move)}) \u2014 press \u201cEngine, move\u201d`;
    }
    document.body.dataset.status = status;
    renderCheck(s);
    const reviewing = !!(s && App.view);
    $('review-bar').hidden = !reviewing;
    if (reviewing) {
      $('review-text').textContent =
        `Reviewing: after ply ${App.view.ply} of ${s.ply}`;
    }
    const busy = status === 'thinking';
    for (const id of ['new-game', 'undo', 'engine-move', 'load-record']) $(id).disabled = busy;
    $('engine-move').disabled = busy || !s || !!s.outcome || !!App.view;
    renderNav();
  }

  /** Win/draw/loss bar, value, budget, best move, top moves and PV, for the person. */
  function renderEvaluation(s) {
    const a = s.analysis;
    const bar = $('wdl');
    const info = $('eval-info');
    const body = $('top-moves').tBodies[0];
    if (!a) {
      bar.replaceChildren();
      info.textContent = 'No engine search yet.';
      $('eval-view').textContent = '';
      body.replaceChildren();
      $('pv').textContent = '';
      return;
    }
    // The search's numbers are for the side that searched; everything shown is turned to
    // the person's view, and each line says whose estimate it is: the bar is the network's
    // own win/draw/loss, the value the search's (its leaves' utility, the network's value
    // with the material term where play weighs material, over its simulations), q each
    // engine move's mean value in the search.
    const swap = a.color !== s.human;
    let [w, d, l] = a.wdl;
    if (swap) [w, l] = [l, w];
    const total = w + d + l || 1;
    const seg = (cls, x, name) => {
      const e = el('span', cls, x / total >= 0.09 ? pct(x / total) : '');
      e.style.width = `${((100 * x) / total).toFixed(2)}%`;
      e.title = `${name} ${pct(x / total)}`;
      return e;
    };
    bar.replaceChildren(seg('w', w, 'win'), seg('d', d, 'draw'), seg('l', l, 'loss'));
    $('eval-view').textContent = `(for you, ${cap(s.human)})`;
    const yours = swap ? -a.value : a.value;
    const secs = (a.millis / 1000).toFixed(a.millis < 10000 ? 2 : 1);
    info.replaceChildren(
      el('div', '', `network: win ${pct(w / total)} \u00b7 draw ${pct(d / total)} \u00b7 loss ${pct(l / total)} for you`),
      el('div', '', `search value ${signed(yours)} for you (the search's mean over its simulations, ${signed(a.value)} for ${a.color})`),
      el('div', '', `${a.simulations} simulations \u00b7 ${secs} s \u00b7 ply ${a.ply}, ${a.color} to move`),
      el('div', '', `best move ${a.best}`),
    );
    body.replaceChildren(...(a.top || []).map((t) => {
      const tr = el('tr', t.move === a.best ? 'best' : '');
      tr.append(el('td', 'mono', t.move), el('td', '', t.visits),
        el('td', '', `${(t.prior * 100).toFixed(1)}%`), el('td', '', signed(swap ? -t.q : t.q)));
      return tr;
    }));
    $('pv').textContent = a.pv && a.pv.length ? `PV: ${a.pv.join(' ')}` : '';
  }

  /** The moves in two columns (black, white), numbered, each with the moving piece's label;
   *  the move that led to the position shown is highlighted, and a click shows that position. */
  function renderMoveList(s) {
    const rows = [];
    for (const h of s.history) {
      let row = rows[rows.length - 1];
      if (!row || h.color === 'black' || row.white) {
        row = { black: null, white: null };
        rows.push(row);
      }
      row[h.color === 'white' ? 'white' : 'black'] = h;
    }
    const at = App.view ? App.view.ply : s.ply;
    const cell = (h) => {
      if (!h) return el('td', 'mv', '');
      const td = el('td', `mv mono${h.by === 'engine' ? ' engine' : ''}${h.ply === at ? ' last' : ''}`);
      td.append(el('span', 'pl', h.piece), document.createTextNode(` ${h.text}`));
      const name = App.labelNames.get(h.piece);
      td.title = `ply ${h.ply} \u00b7 ${h.color} \u00b7 ${h.by}${name ? ` \u00b7 ${name}` : ''}`;
      td.dataset.ply = String(h.ply);
      return td;
    };
    const body = $('move-list').querySelector('tbody');
    body.replaceChildren(...rows.map((r, i) => {
      const tr = el('tr');
      tr.append(el('td', 'num', `${i + 1}.`), cell(r.black), cell(r.white));
      return tr;
    }));
    const box = $('move-list');
    const mark = box.querySelector('td.last');
    if (!App.view) box.scrollTop = box.scrollHeight;
    else if (mark) mark.scrollIntoView({ block: 'nearest' });
  }

  // ===================================================================== review

  /**
   * Shows the position after `ply` moves (the board, hands and check marks follow; the move
   * list highlights the move). At the game's own ply the review ends and play resumes.
   */
  async function reviewTo(ply) {
    const s = App.state;
    if (!s || App.pending) return;
    const target = Math.max(0, Math.min(ply, s.ply));
    if (target === s.ply) {
      App.view = null;
      render();
      return;
    }
    try {
      const r = await api('GET', `/api/position?ply=${target}`);
      if (App.state !== s) return;  // the game moved on meanwhile
      App.view = { ply: target, position: r.position, last: r.last };
      App.path = [];
      setError('');
    } catch (e) {
      setError(e.message);
    }
    render();
  }

  const shownPly = () => (App.view ? App.view.ply : App.state ? App.state.ply : 0);

  function renderNav() {
    const s = App.state;
    const at = shownPly(), end = s ? s.ply : 0;
    const busy = !!App.pending;
    $('nav-first').disabled = busy || at === 0;
    $('nav-prev').disabled = busy || at === 0;
    $('nav-next').disabled = busy || at >= end;
    $('nav-last').disabled = busy || at >= end;
    $('nav-at').textContent = s ? `ply ${at} of ${end}` : '';
  }

  // ===================================================================== check

  /** "Check!" with the pieces giving it (the squares are marked on the board). */
  function renderCheck(s) {
    const box = $('check');
    const b = s ? shown() : null;
    const checks = b && b.checks;
    if (!s || !checks || checks.targets.length === 0 || (!App.view && s.outcome)) {
      box.hidden = true;
      return;
    }
    const at = new Map(b.board.map((p) => [p.square, p]));
    const by = checks.checkers.map((sq) => {
      const p = at.get(sq);
      const info = p && App.pieceInfo.get(p.piece);
      return info ? `${info.name} on ${sq}` : sq;
    });
    box.textContent = by.length ? `Check! by ${by.join(', ')}` : 'Check!';
    box.hidden = false;
  }

  // ===================================================================== clock

  const clockText = (ms) => {
    const t = Math.ceil(ms / 1000);
    const m = Math.floor(t / 60), sec = t % 60;
    return `${m}:${String(sec).padStart(2, '0')}`;
  };

  /** The person's clock: counts down from the state's reading while it runs; when it
   *  reaches zero the state is read again, and the server says whether the flag fell. */
  function renderClock() {
    const s = App.state;
    const box = $('person-clock');
    clearTimeout(App.clockTimer);
    const c = s && s.clock;
    if (!c) { box.hidden = true; return; }
    box.hidden = false;
    const spent = c.running ? performance.now() - App.clockAt : 0;
    let main = Math.max(0, c.main_left_ms - spent);
    const over = Math.max(0, spent - c.main_left_ms);
    let byo = Math.max(0, c.byoyomi_left_ms - over);
    let text;
    if (main > 0 || c.control.byoyomi_secs === 0) text = clockText(main);
    else text = `byoyomi ${clockText(byo)}`;
    box.textContent = text;
    box.classList.toggle('running', c.running);
    const low = c.running && main === 0 ? byo < 10000 : main < 10000 && c.control.byoyomi_secs === 0;
    box.classList.toggle('low', c.running && low);
    if (c.running) {
      if (main === 0 && byo === 0) {
        if (!App.clockAsked && !App.pending) {
          App.clockAsked = true;
          api('GET', '/api/state').then((st) => { if (!App.pending) accept(st); }).catch(() => {});
        }
        return;
      }
      App.clockTimer = setTimeout(renderClock, 200);
    }
  }

  // ===================================================================== piece panel

  /** Reads the variant's piece reference once (it never changes while the server runs). */
  async function loadPieces(s) {
    if (App.pieceRef || App.pieceRefLoading) return;
    App.pieceRefLoading = true;
    try {
      App.pieceRef = await api('GET', '/api/pieces');
      const first = App.pieceRef.pieces.find((p) => p.royal) || App.pieceRef.pieces[0];
      renderPieceList();
      showPiece(first ? first.id : null);
    } catch (e) {
      setError(e.message);
    } finally {
      App.pieceRefLoading = false;
    }
  }

  function renderPieceList() {
    const ref = App.pieceRef;
    const box = $('piece-list');
    box.replaceChildren(...ref.pieces.map((p) => {
      const b = el('button', 'piece-chip');
      b.type = 'button';
      b.dataset.pieceRef = p.id;
      b.title = `${p.name} (${p.id})`;
      b.append(pieceElement(p.id, 'black', null, true));
      b.addEventListener('click', () => showPiece(p.id));
      return b;
    }));
  }

  /** What each diagram mark means, in the order the legend lists them. */
  const LEGEND = [
    ['step', 'step (moves or captures)'],
    ['jump', 'leap, jumping over pieces'],
    ['slide', 'slide, as far as the path is free'],
    ['hop', 'hop over one piece first'],
    ['legs', 'end of a move of several legs'],
    ['kill', 'captures on the way and goes on'],
    ['move-only', 'only to an empty square'],
    ['capture-only', 'only to capture'],
  ];

  /** The class of a diagram square from its flags. */
  function diagramClass(how) {
    const has = (x) => how.includes(x);
    const cls = [];
    // The plainest way in wins: a square a piece steps to is a step, even if a longer move
    // also ends there.
    for (const k of ['step', 'jump', 'slide', 'hop', 'legs']) {
      if (has(k)) { cls.push(k); break; }
    }
    if (has('kill')) cls.push('kill');
    if (cls.length && cls[0] !== 'kill') {
      if (has('move') && !has('capture')) cls.push('move-only');
      else if (has('capture') && !has('move')) cls.push('capture-only');
    }
    return cls;
  }

  /** The move diagram of `p`: the piece in the middle of an empty board, marks around it. */
  function diagramElement(p) {
    const d = p.diagram;
    const n = 2 * d.radius + 1;
    const size = Math.max(12, Math.min(26, Math.floor(300 / n)));
    const grid = el('div', 'diagram');
    grid.style.gridTemplateColumns = `repeat(${n}, ${size}px)`;
    grid.style.setProperty('--cell', `${size}px`);
    const at = new Map(d.cells.map((c) => [`${c.df},${c.dr}`, c.how]));
    const used = new Set();
    for (let dr = d.radius; dr >= -d.radius; dr--) {
      for (let df = -d.radius; df <= d.radius; df++) {
        const c = el('div', 'dcell');
        if (df === 0 && dr === 0) {
          c.classList.add('origin');
          c.append(pieceElement(p.id, 'black', null, true));
          if (d.returns) c.title = 'some moves end here again';
        } else {
          const how = at.get(`${df},${dr}`);
          if (how) {
            for (const k of diagramClass(how)) { c.classList.add(k); used.add(k); }
            c.title = how.join(', ');
          }
        }
        grid.append(c);
      }
    }
    const legend = el('div', 'legend');
    for (const [k, text] of LEGEND) {
      if (!used.has(k)) continue;
      const item = el('span', 'legend-item');
      const sw = el('span', `dcell ${k}`);
      if (k === 'move-only' || k === 'capture-only') sw.classList.add('step');
      item.append(sw, document.createTextNode(text));
      legend.append(item);
    }
    return [grid, legend];
  }

  /** A shooter's shots: from the square it landed on, along the eight lines up to its range
   *  (a power of the variant's rule module, so not in the move diagram). */
  function shotElement(p) {
    const r = p.shot.range;
    const n = 2 * r + 1;
    const size = Math.max(12, Math.min(22, Math.floor(240 / n)));
    const grid = el('div', 'diagram shots');
    grid.style.gridTemplateColumns = `repeat(${n}, ${size}px)`;
    grid.style.setProperty('--cell', `${size}px`);
    for (let dr = r; dr >= -r; dr--) {
      for (let df = -r; df <= r; df++) {
        const c = el('div', 'dcell');
        if (df === 0 && dr === 0) {
          c.classList.add('origin');
          c.append(pieceElement(p.id, 'black', null, true));
        } else if (df === 0 || dr === 0 || Math.abs(df) === Math.abs(dr)) {
          c.classList.add('shot');
          c.title = 'may be shot';
        }
        grid.append(c);
      }
    }
    return grid;
  }

  /** Shows the piece `id` in the piece panel. */
  function showPiece(id) {
    const ref = App.pieceRef;
    if (!ref || !id || App.pieceShown === id) return;
    const p = ref.pieces.find((x) => x.id === id);
    if (!p) return;
    App.pieceShown = id;
    const box = $('piece-detail');
    const head = el('div', 'piece-head');
    head.append(pieceElement(p.id, 'black', null, true));
    const title = el('div', 'piece-title');
    title.append(el('div', 'piece-name', cap(p.name)),
      el('div', 'muted', `ID ${p.id}${p.label !== p.id ? ` \u00b7 drawn ${p.label}` : ''} \u00b7 XBetza ${p.betza}`));
    head.append(title);
    const kids = [head, ...diagramElement(p)];
    if (p.shot) kids.push(el('div', 'muted', 'Its shots, from the square it lands on:'), shotElement(p));
    const links = el('div', 'piece-links');
    const link = (text, k) => {
      const a = el('button', 'link', `${text} ${cap(k.name)} (${k.label})`);
      a.type = 'button';
      a.addEventListener('click', () => showPiece(k.id));
      return a;
    };
    if (p.promotes_to) links.append(link('Promotes to', p.promotes_to));
    if (p.promoted_from) links.append(link('Promoted from', p.promoted_from));
    if (links.children.length) kids.push(links);
    if (p.rules.length) {
      const ul = el('ul', 'piece-rules');
      for (const r of p.rules) ul.append(el('li', '', r));
      kids.push(ul);
    }
    if (p.about) kids.push(el('p', 'piece-about', p.about));
    if (p.diagram.returns) kids.push(el('p', 'muted', 'Some of its moves end on the square they began from (a capture without moving, or passing the turn).'));
    box.replaceChildren(...kids);
    box.dataset.piece = id;
    for (const b of $('piece-list').children) b.classList.toggle('shown', b.dataset.pieceRef === id);
  }

  // ===================================================================== record file

  /** Saves the game record as a text file. */
  async function saveRecord() {
    try {
      const r = await api('GET', '/api/record');
      const blob = new Blob([r.text], { type: 'text/plain' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      const when = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      a.download = `koma-${r.variant}-${when}.txt`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (e) {
      setError(e.message);
    }
  }

  /** Loads a record file chosen by the person: the game as saved, to review or play on. */
  function loadRecord(file) {
    if (!file) return;
    run('request', async () => {
      const text = await file.text();
      App.view = null;
      accept(await api('POST', '/api/load', { record: text, clock: clockChoice() }));
    });
  }

  async function showRecord() {
    const pre = $('record');
    if (!pre.hidden) { pre.hidden = true; return; }
    try {
      const r = await api('GET', '/api/record');
      pre.textContent = r.text || JSON.stringify(r, null, 2);
      pre.hidden = false;
    } catch (e) {
      setError(e.message);
    }
  }

  // ===================================================================== events

  function init() {
    $('grid').addEventListener('click', (e) => {
      const sq = e.target.closest('[data-square]');
      if (sq) onClick(sq.dataset.square);
    });
    for (const id of ['hand-top', 'hand-bottom']) {
      $(id).addEventListener('click', (e) => {
        const h = e.target.closest('[data-hand]');
        const s = App.state;
        if (!h || !s) return;
        // Only the side to move's hand pieces can be dropped.
        if (h.dataset.color === s.side_to_move) onClick(`@${h.dataset.hand}`);
      });
    }
    $('board-area').addEventListener('contextmenu', (e) => {
      e.preventDefault();
      clearPath();
    });
    document.addEventListener('keydown', (e) => {
      if (e.target.closest && e.target.closest('input, select, textarea')) return;
      const steps = { ArrowLeft: () => shownPly() - 1, ArrowRight: () => shownPly() + 1,
                      Home: () => 0, End: () => Infinity };
      if (steps[e.key] && !App.promo) {
        e.preventDefault();
        reviewTo(steps[e.key]());
        return;
      }
      if (e.key !== 'Escape') return;
      if (App.promo) closePromotion(null);
      else clearPath();
    });
    $('promote-yes').addEventListener('click', () => closePromotion(true));
    $('promote-no').addEventListener('click', () => closePromotion(false));
    $('promo-overlay').addEventListener('click', (e) => {
      if (e.target === e.currentTarget) closePromotion(null);
    });
    $('new-game').addEventListener('click', newGame);
    $('undo').addEventListener('click', undo);
    $('engine-move').addEventListener('click', engineButton);
    $('show-record').addEventListener('click', showRecord);
    $('save-record').addEventListener('click', saveRecord);
    $('load-record').addEventListener('click', () => $('load-file').click());
    $('load-file').addEventListener('change', (e) => {
      loadRecord(e.target.files[0]);
      e.target.value = '';
    });
    $('nav-first').addEventListener('click', () => reviewTo(0));
    $('nav-prev').addEventListener('click', () => reviewTo(shownPly() - 1));
    $('nav-next').addEventListener('click', () => reviewTo(shownPly() + 1));
    $('nav-last').addEventListener('click', () => reviewTo(Infinity));
    $('review-end').addEventListener('click', () => reviewTo(Infinity));
    $('move-list').addEventListener('click', (e) => {
      const td = e.target.closest('td[data-ply]');
      if (td) reviewTo(parseInt(td.dataset.ply, 10));
    });
    // Pointing at a piece on the board or in a hand shows it in the piece panel.
    const pointAt = (e) => {
      const p = e.target.closest('[data-square], [data-hand]');
      const piece = p && (p.querySelector('.piece') || null);
      if (piece && piece.dataset.piece) showPiece(piece.dataset.piece);
    };
    $('board-area').addEventListener('mouseover', pointAt);
    let resizeFrame = 0;
    window.addEventListener('resize', () => {
      cancelAnimationFrame(resizeFrame);
      resizeFrame = requestAnimationFrame(sizeBoard);
    });
    load();
  }

  // The pure parts, for tests and the console.
  App.decideClick = decideClick;
  App.pathMarks = pathMarks;
  window.KomaPlay = App;

  if (typeof document !== 'undefined' && document.getElementById) init();
})();

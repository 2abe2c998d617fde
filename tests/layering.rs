//! The shape of the code, checked: no two source files depend on each other (directly or round
//! a longer circle), no crate depends on one above it in the layers, and every crate's
//! `Cargo.toml` lists only crates its code uses.
//!
//! Files are read with `syn`; every path that names something of the same crate (`use` trees,
//! paths in types and expressions, `crate::`, `super::`, `self::` and child modules) is resolved
//! to the file that defines it, following `pub use` re-exports, so that using a name through a
//! module's re-export is a dependency on the file that defines it, not on the module file.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The crates from the bottom layer up: a crate may depend only on crates before it.
const LAYERS: [&str; 10] = [
    "koma-rules",
    "koma-mcts",
    "koma-model",
    "koma-store",
    "koma-selfplay",
    "koma-trainer",
    "koma-engine",
    "koma-play",
    "koma-arena",
    "koma",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A module: its file and the names it re-exports (`pub use`), to the module path they name.
#[derive(Debug, Default)]
struct Module {
    file: PathBuf,
    /// Re-exported name -> absolute path of what it names.
    reexports: HashMap<String, Vec<String>>,
}

/// One crate's modules by absolute path (`["crate", "search", "loader"]`), and the paths each
/// file names.
#[derive(Debug, Default)]
struct CrateMap {
    modules: BTreeMap<Vec<String>, Module>,
    /// File -> the absolute paths it names (with the module they were written in).
    uses: Vec<(PathBuf, Vec<Vec<String>>)>,
}

/// Where the file of `mod name;` declared in `file` lives.
fn child_file(file: &Path, name: &str, attrs: &[syn::Attribute]) -> PathBuf {
    let dir_of_children = {
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let parent = file.parent().unwrap_or(Path::new("."));
        if matches!(stem, "mod" | "lib" | "main") || is_bin_root(file) {
            parent.to_path_buf()
        } else {
            parent.join(stem)
        }
    };
    for a in attrs {
        if a.path().is_ident("path") {
            if let syn::Meta::NameValue(nv) = &a.meta {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                {
                    return file.parent().unwrap_or(Path::new(".")).join(s.value());
                }
            }
        }
    }
    let flat = dir_of_children.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        dir_of_children.join(name).join("mod.rs")
    }
}

/// Binaries of the root package whose modules sit beside them (`src/engine_main.rs`).
fn is_bin_root(file: &Path) -> bool {
    file.parent() == Some(&root().join("src"))
}

/// Flattens a `use` tree into absolute-or-relative paths (the last segment `*` for globs), with
/// the name each is bound to.
fn flatten_use(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                out.push((prefix.clone(), prefix.last().cloned().unwrap_or_default()));
            } else {
                let mut p = prefix.clone();
                p.push(name.clone());
                out.push((p, name));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut p = prefix.clone();
            p.push(r.ident.to_string());
            out.push((p, r.rename.to_string()));
        }
        syn::UseTree::Glob(_) => {
            let mut p = prefix.clone();
            p.push("*".into());
            out.push((p, "*".into()));
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, out);
            }
        }
    }
}

/// Collects the paths of one module's items (and its inline modules), relative paths made
/// absolute against the module they were written in.
struct PathCollector<'a> {
    module: Vec<String>,
    /// Child modules declared in the current module (relative paths may start with them).
    children: BTreeSet<String>,
    paths: &'a mut Vec<Vec<String>>,
}

impl PathCollector<'_> {
    fn absolute(&self, segs: &[String]) -> Option<Vec<String>> {
        let first = segs.first()?;
        let mut out = match first.as_str() {
            "crate" => vec!["crate".to_string()],
            "self" => self.module.clone(),
            "super" => {
                let mut m = self.module.clone();
                let mut rest = segs;
                while rest.first().map(String::as_str) == Some("super") {
                    m.pop();
                    rest = &rest[1..];
                }
                m.extend(rest.iter().cloned());
                return Some(m);
            }
            name if self.children.contains(name) => {
                let mut m = self.module.clone();
                m.push(name.to_string());
                m.extend(segs[1..].iter().cloned());
                return Some(m);
            }
            _ => return None,
        };
        out.extend(segs[1..].iter().cloned());
        Some(out)
    }
}

impl<'ast> Visit<'ast> for PathCollector<'_> {
    // `pub(crate)` names no item.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(abs) = self.absolute(&segs) {
            self.paths.push(abs);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut flat = Vec::new();
        flatten_use(&u.tree, &mut Vec::new(), &mut flat);
        for (segs, _) in flat {
            if let Some(abs) = self.absolute(&segs) {
                self.paths.push(abs);
            }
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if let Some((_, items)) = &m.content {
            let mut module = self.module.clone();
            module.push(m.ident.to_string());
            let children = items
                .iter()
                .filter_map(|i| match i {
                    syn::Item::Mod(m) => Some(m.ident.to_string()),
                    _ => None,
                })
                .collect();
            let mut inner = PathCollector {
                module,
                children,
                paths: self.paths,
            };
            for item in items {
                inner.visit_item(item);
            }
        }
    }
}

fn is_public(vis: &syn::Visibility) -> bool {
    !matches!(vis, syn::Visibility::Inherited)
}

/// Reads the module tree of a crate root, file by file.
fn read_crate(root_file: &Path) -> CrateMap {
    let mut map = CrateMap::default();
    let mut stack = vec![(root_file.to_path_buf(), vec!["crate".to_string()])];
    while let Some((file, module)) = stack.pop() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut children = BTreeSet::new();
        for item in &ast.items {
            if let syn::Item::Mod(m) = item {
                children.insert(m.ident.to_string());
                if m.content.is_none() {
                    let mut child = module.clone();
                    child.push(m.ident.to_string());
                    stack.push((child_file(&file, &m.ident.to_string(), &m.attrs), child));
                }
            }
        }
        let mut paths = Vec::new();
        let mut collector = PathCollector {
            module: module.clone(),
            children,
            paths: &mut paths,
        };
        let mut reexports = HashMap::new();
        for item in &ast.items {
            if let syn::Item::Use(u) = item {
                if is_public(&u.vis) {
                    let mut flat = Vec::new();
                    flatten_use(&u.tree, &mut Vec::new(), &mut flat);
                    for (segs, name) in flat {
                        if let Some(abs) = collector.absolute(&segs) {
                            reexports.insert(name, abs);
                        }
                    }
                }
            }
            collector.visit_item(item);
        }
        map.uses.push((file.clone(), paths));
        map.modules.insert(module, Module { file, reexports });
    }
    map
}

impl CrateMap {
    /// The file defining what `path` names (following re-exports), if it is in this crate.
    fn defining_file(&self, path: &[String], depth: usize) -> Option<&Path> {
        if depth > 16 {
            return None;
        }
        // The longest prefix that is a module.
        let mut n = path.len();
        while n > 0 && !self.modules.contains_key(&path[..n]) {
            n -= 1;
        }
        if n == 0 {
            return None;
        }
        let module = &self.modules[&path[..n]];
        if let Some(next) = path.get(n) {
            if let Some(target) = module.reexports.get(next) {
                let mut t = target.clone();
                t.extend(path[n + 1..].iter().cloned());
                if t.as_slice() != path {
                    if let Some(f) = self.defining_file(&t, depth + 1) {
                        return Some(f);
                    }
                }
            }
        }
        Some(&module.file)
    }

    /// File -> files it depends on.
    fn edges(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        let mut out: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
        for (file, paths) in &self.uses {
            let entry = out.entry(file.clone()).or_default();
            for p in paths {
                if let Some(target) = self.defining_file(p, 0) {
                    if std::env::var_os("KOMA_LAYERING_DEBUG").is_some() {
                        eprintln!(
                            "{} -> {} via {}",
                            file.display(),
                            target.display(),
                            p.join("::")
                        );
                    }
                    if target != file {
                        entry.insert(target.to_path_buf());
                    }
                }
            }
        }
        out
    }
}

/// Circles of files (strongly connected components of more than one file), Tarjan's way.
fn circles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: HashMap<&'a Path, usize>,
        low: HashMap<&'a Path, usize>,
        stack: Vec<&'a Path>,
        on_stack: BTreeSet<&'a Path>,
        next: usize,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Path) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(ws) = s.edges.get(v) {
            for w in ws {
                let w = w.as_path();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_path_buf());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_path()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The workspace's packages: name, directory and manifest.
fn packages() -> Vec<(String, PathBuf, toml::Table)> {
    let read = |dir: &Path| -> toml::Table {
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        text.parse().unwrap()
    };
    let top = read(&root());
    let members = top["workspace"]["members"].as_array().unwrap();
    let mut out = vec![("koma".to_string(), root(), top.clone())];
    for m in members {
        let dir = root().join(m.as_str().unwrap());
        let manifest = read(&dir);
        let name = manifest["package"]["name"].as_str().unwrap().to_string();
        out.push((name, dir, manifest));
    }
    out
}

/// The crate roots of a package's library and binaries.
fn crate_roots(name: &str, dir: &Path) -> Vec<PathBuf> {
    if name == "koma" {
        return vec![dir.join("src/main.rs"), dir.join("src/engine_main.rs")];
    }
    vec![dir.join("src/lib.rs")]
}

fn relative(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn no_two_files_depend_on_each_other() {
    let mut found = Vec::new();
    let mut files = 0;
    for (name, dir, _) in packages() {
        for r in crate_roots(&name, &dir) {
            let map = read_crate(&r);
            files += map.modules.len();
            for c in circles(&map.edges()) {
                found.push(
                    c.iter()
                        .map(|p| relative(p))
                        .collect::<Vec<_>>()
                        .join(" <-> "),
                );
            }
        }
    }
    assert!(
        files > 100,
        "only {files} files read: the module walk is broken"
    );
    assert!(found.is_empty(), "files in a circle:\n{}", found.join("\n"));
}

#[test]
fn the_checker_sees_a_circle() {
    // Two modules that import each other, written to a temporary crate.
    let dir = std::env::temp_dir().join(format!("koma-layering-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\npub use a::A;\n").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "mod c;\npub struct A(crate::b::B);\n").unwrap();
    std::fs::write(dir.join("a/c.rs"), "pub struct C;\n").unwrap();
    std::fs::write(dir.join("b.rs"), "pub struct B(Box<crate::A>);\n").unwrap();
    let map = read_crate(&dir.join("lib.rs"));
    let c = circles(&map.edges());
    assert_eq!(c, vec![vec![dir.join("a/mod.rs"), dir.join("b.rs")]]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The crate names a package's code can use, from its manifest's dependency table.
fn dependency_names(table: Option<&toml::Value>) -> Vec<(String, String)> {
    let Some(t) = table.and_then(|t| t.as_table()) else {
        return Vec::new();
    };
    t.iter()
        .map(|(key, v)| {
            let package = v
                .get("package")
                .and_then(|p| p.as_str())
                .unwrap_or(key)
                .to_string();
            let lib = match package.as_str() {
                "rust-ini" => "ini".to_string(),
                _ => key.replace('-', "_"),
            };
            (key.clone(), lib)
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn uses_crate(files: &[PathBuf], lib: &str) -> bool {
    let patterns = [
        format!("{lib}::"),
        format!("use {lib}"),
        format!("{lib} as "),
    ];
    files.iter().any(|f| {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        patterns.iter().any(|p| text.contains(p.as_str()))
    })
}

#[test]
fn crates_depend_only_downwards_and_only_on_what_they_use() {
    let mut problems = Vec::new();
    for (name, dir, manifest) in packages() {
        let layer = LAYERS.iter().position(|l| *l == name);
        let deps = dependency_names(manifest.get("dependencies"));
        for (key, _) in &deps {
            if let Some(dep_layer) = LAYERS.iter().position(|l| l == key) {
                match layer {
                    Some(l) if dep_layer < l => {}
                    _ => problems.push(format!("{name} depends on {key}, which is not below it")),
                }
            }
        }
        if layer.is_none() {
            problems.push(format!("{name} is in no layer"));
        }
        let mut src = Vec::new();
        rust_files(&dir.join("src"), &mut src);
        if name == "koma" {
            // The root package's directory holds the other crates; only its own src counts.
            src.retain(|f| f.starts_with(dir.join("src")));
        }
        for (key, lib) in &deps {
            if !uses_crate(&src, lib) {
                problems.push(format!("{name}: dependency {key} is not used by its code"));
            }
        }
        let mut all = src.clone();
        for sub in ["tests", "benches", "examples"] {
            rust_files(&dir.join(sub), &mut all);
        }
        for (key, lib) in dependency_names(manifest.get("dev-dependencies")) {
            if !uses_crate(&all, &lib) {
                problems.push(format!("{name}: dev-dependency {key} is not used"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

//! The library's module graph, read from its sources: every `crate::`, `super::`, `self::` and
//! child-module path is an edge. No module of the runner may reach itself again through them,
//! tests included, and `lib.rs` and `runner/mod.rs` declare their modules bottom-up: each
//! module's own code uses only modules declared before it (a module's tests may also drive one
//! above it, as the producer's tests drive a sink).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every library source file and the module it defines (the binary's main.rs, bin/ and the
/// modules main.rs declares are not the library).
fn library_files() -> Vec<(PathBuf, Module)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&src(), &mut files);
    let binary_only = ["main.rs", "vectors.rs"];
    files
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(src()).unwrap().to_owned();
            if rel.starts_with("bin") || binary_only.iter().any(|b| rel == Path::new(b)) {
                return None;
            }
            let mut module: Module = rel.with_extension("").iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                module.pop();
            }
            Some((path, module))
        })
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths written after `start` in `code`: `a::b::C`, or each item of a `{...}` group.
fn paths_after(code: &str, start: usize) -> Vec<Vec<String>> {
    let rest = &code[start..];
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 1;
        let mut items = vec![String::new()];
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => break,
                '}' => depth -= 1,
                ',' if depth == 1 => items.push(String::new()),
                _ => {}
            }
            if depth == 1 && c != ',' {
                items.last_mut().unwrap().push(c);
            }
        }
        return items.iter().map(|i| segments(i.trim())).filter(|s| !s.is_empty()).collect();
    }
    vec![segments(rest)]
}

/// The leading `a::b::c` of `text`, as segments.
fn segments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let len = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        out.push(rest[..len].to_owned());
        match rest[len..].strip_prefix("::") {
            Some(more) => rest = more,
            None => break,
        }
    }
    out
}

/// The modules `code` (of `module`, whose children are `children`) refers to.
fn references(code: &str, module: &Module, children: &BTreeSet<String>, known: &BTreeSet<Module>) -> BTreeSet<Module> {
    let code: String = code.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    // Inside the tests at the bottom of a file, `super` is the file's own module.
    let tests_from = code.find("#[cfg(test)]").unwrap_or(code.len());
    let mut out = BTreeSet::new();
    let mut i = 0;
    while let Some(found) = code[i..].find("::") {
        let at = i + found;
        i = at + 2;
        let word_start = code[..at].rfind(|c: char| !is_ident(c)).map_or(0, |p| p + 1);
        let word = &code[word_start..at];
        if word_start > 0 && code[..word_start].ends_with("::") {
            continue; // the middle of a path already read
        }
        let own = if at >= tests_from { module.clone() } else { module[..module.len().saturating_sub(1)].to_vec() };
        let base: Module = match word {
            "crate" => Vec::new(),
            "super" => own,
            "self" => module.clone(),
            w if children.contains(w) => {
                i = word_start;
                i += word.len() + 2;
                let mut m = module.clone();
                m.push(w.to_owned());
                out.insert(m);
                continue;
            }
            _ => continue,
        };
        for path in paths_after(&code, at + 2) {
            let mut base = base.clone();
            let path: Vec<String> = path.into_iter().filter(|s| s != "self").collect();
            let mut path = path.as_slice();
            while path.first().is_some_and(|s| s == "super") {
                base.pop();
                path = &path[1..];
            }
            // The longest prefix that is a module; an item of `base` itself otherwise.
            let mut target = base.clone();
            for segment in path {
                let mut next = target.clone();
                next.push(segment.clone());
                if !known.contains(&next) {
                    break;
                }
                target = next;
            }
            out.insert(target);
        }
    }
    out.remove(module);
    out
}

/// module -> the modules it refers to, for every library module; `with_tests` counts the
/// tests at the bottom of a file and the files of `tests` modules.
fn graph(with_tests: bool) -> BTreeMap<Module, BTreeSet<Module>> {
    let files: Vec<(PathBuf, Module)> =
        library_files().into_iter().filter(|(_, m)| with_tests || m.last().is_none_or(|l| l != "tests")).collect();
    let known: BTreeSet<Module> = files.iter().map(|(_, m)| m.clone()).collect();
    files
        .iter()
        .map(|(path, module)| {
            let children: BTreeSet<String> = known
                .iter()
                .filter(|k| k.len() == module.len() + 1 && k.starts_with(module))
                .map(|k| k.last().unwrap().clone())
                .collect();
            let code = std::fs::read_to_string(path).unwrap();
            let code = if with_tests { code.as_str() } else { code.split("#[cfg(test)]").next().unwrap_or("") };
            (module.clone(), references(code, module, &children, &known))
        })
        .collect()
}

/// A path of references from `from` back to itself, if there is one.
fn cycle_through(graph: &BTreeMap<Module, BTreeSet<Module>>, from: &Module) -> Option<Vec<Module>> {
    let mut stack = vec![(from.clone(), vec![from.clone()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in graph.get(&at).into_iter().flatten() {
            if next == from {
                return Some([path.clone(), vec![next.clone()]].concat());
            }
            if seen.insert(next.clone()) {
                stack.push((next.clone(), [path.clone(), vec![next.clone()]].concat()));
            }
        }
    }
    None
}

fn shown(path: &[Module]) -> String {
    path.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" -> ")
}

#[test]
fn no_runner_module_imports_one_that_imports_it_back() {
    let graph = graph(true);
    let runner: Vec<&Module> = graph.keys().filter(|m| m.first().is_some_and(|f| f == "runner")).collect();
    assert!(runner.len() > 10, "the runner's modules are found: {runner:?}");
    let edge = |from: &str, to: &str| {
        graph[&from.split("::").map(str::to_owned).collect::<Module>()]
            .contains(&to.split("::").map(str::to_owned).collect::<Module>())
    };
    assert!(
        edge("runner::run", "runner::launch")
            && edge("runner::report::html", "runner::report::contents")
            && edge("runner::report", "runner::report::html")
    );
    for module in runner {
        if let Some(cycle) = cycle_through(&graph, module) {
            panic!("import circle: {}", shown(&cycle));
        }
    }
}

/// The modules `file` declares with `mod`, in order.
fn declared(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ").or_else(|| l.trim().strip_prefix("mod ")))
        .filter_map(|l| l.strip_suffix(';'))
        .map(str::to_owned)
        .collect()
}

/// Each module `parent` declares uses only those declared before it.
fn declared_bottom_up(parent: &[&str], file: &Path) {
    let graph = graph(false);
    let order = declared(file);
    let rank = |m: &Module| -> Option<usize> {
        (m.len() > parent.len() && m.starts_with(&parent.iter().map(|s| s.to_string()).collect::<Vec<_>>()))
            .then(|| order.iter().position(|d| *d == m[parent.len()]))
            .flatten()
    };
    for (module, uses) in &graph {
        let Some(mine) = rank(module) else { continue };
        for used in uses {
            if let Some(theirs) = rank(used) {
                assert!(
                    theirs <= mine,
                    "{} uses {}, declared after it in {}",
                    module.join("::"),
                    used.join("::"),
                    file.display()
                );
            }
        }
    }
}

#[test]
fn lib_declares_its_modules_in_dependency_order() {
    declared_bottom_up(&[], &src().join("lib.rs"));
}

#[test]
fn the_runner_declares_its_modules_bottom_up() {
    declared_bottom_up(&["runner"], &src().join("runner/mod.rs"));
}

#[test]
fn a_circle_is_found() {
    let known: BTreeSet<Module> =
        [vec!["a".to_owned()], vec!["a".to_owned(), "x".to_owned()], vec!["a".to_owned(), "y".to_owned()]].into();
    let x = vec!["a".to_owned(), "x".to_owned()];
    let y = vec!["a".to_owned(), "y".to_owned()];
    let refs = |code: &str, m: &Module| references(code, m, &BTreeSet::new(), &known);
    assert_eq!(
        refs("use super::{y::Thing, z};\nfn f() { crate::a::y::g() }", &x),
        [vec!["a".to_owned()], y.clone()].into()
    );
    let graph =
        BTreeMap::from([(x.clone(), refs("use super::y::Y;", &x)), (y.clone(), refs("use crate::a::x::X;", &y))]);
    assert_eq!(cycle_through(&graph, &x), Some(vec![x.clone(), y, x]));
}

//! Within a layer, modules depend one way too: no module names a sibling that names it back,
//! directly or through others (`chips` using `mini` using `chips`). Read off the source as the
//! layering check reads it: every path a file's code names through `crate::`, `super::` or
//! `self::` (groups included), outside its test code, resolved to the deepest module it
//! names; each dependency is lifted to the two siblings under the modules' nearest common
//! parent (`ui::paint::chips` naming `ui::colours` is `ui::paint` naming `ui::colours`). A
//! module naming its own parent (`super::Playground`) is how Rust nests, not a loop.

use crate::harness::project;
use crate::layering::{
    child_module_path, code_only, ident, module_path, rust_files, without_tests,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules whose loops are still being taken apart elsewhere (issue 41); every other
/// module is held to none.
const NOT_YET: [&str; 0] = [];

/// Every path named after `root` at `rest`: `a::b` gives `[a, b]`; `{a::b, c::{d, e}}`
/// gives `[a, b]`, `[c, d]` and `[c, e]` (a path's tail after its group is not read).
fn paths_after(rest: &str) -> Vec<Vec<String>> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut items = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&group[start..i]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&group[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return items
            .into_iter()
            .filter(|item| !item.trim().is_empty())
            .flat_map(paths_after)
            .collect();
    }
    let name = ident(rest);
    if name.is_empty() {
        return vec![Vec::new()];
    }
    let after = rest.trim_start()[name.len()..].trim_start();
    match after.strip_prefix("::") {
        Some(more) => paths_after(more)
            .into_iter()
            .map(|tail| std::iter::once(name.to_string()).chain(tail).collect())
            .collect(),
        None => vec![vec![name.to_string()]],
    }
}

/// Every module path a file's code names, from the file's module `module`, before it is
/// matched to the modules there are: each `crate::` path from the crate's root, each
/// `super::` chain from the module it climbs to, each `self::` path from the module itself.
fn named(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let word_start =
        |at: usize| !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
    for root in ["crate", "super", "self"] {
        for (at, _) in code.match_indices(root) {
            if !word_start(at) {
                continue;
            }
            let mut rest = &code[at..];
            let mut base = module.to_vec();
            let mut climbed = false;
            while let Some(r) = rest.strip_prefix(root) {
                let Some(r) = r.trim_start().strip_prefix("::") else {
                    break;
                };
                climbed = true;
                rest = r.trim_start();
                match root {
                    "crate" => base.clear(),
                    "super" => {
                        base.pop();
                    }
                    _ => {}
                }
                if root != "super" {
                    break;
                }
            }
            if climbed {
                for tail in paths_after(rest) {
                    out.push(base.iter().cloned().chain(tail).collect());
                }
            }
        }
    }
    out
}

/// Each module of `src` (but test code) and the modules it names, each the deepest module
/// there is on the path named.
fn dependencies(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut parsed = Vec::new();
    let mut test_modules = Vec::new();
    for path in files {
        let relative = path.strip_prefix(src).expect("inside src").to_path_buf();
        let text = std::fs::read_to_string(&path).expect("source file");
        let (code, tests) = without_tests(&code_only(&text));
        for name in tests {
            test_modules.push(child_module_path(&relative, &name));
        }
        parsed.push((relative, code));
    }
    let is_test = |relative: &Path| {
        test_modules
            .iter()
            .any(|m| relative.with_extension("") == *m || relative.starts_with(m))
    };
    let code: Vec<(Vec<String>, String)> = parsed
        .into_iter()
        .filter(|(relative, _)| !is_test(relative))
        .map(|(relative, code)| (module_path(&relative), code))
        .collect();
    let modules: BTreeSet<Vec<String>> = code.iter().map(|(m, _)| m.clone()).collect();
    let deepest = |path: &[String]| {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|prefix| modules.contains(prefix))
    };
    code.iter()
        .map(|(module, text)| {
            let used = named(text, module)
                .iter()
                .filter_map(|path| deepest(path))
                .collect();
            (module.clone(), used)
        })
        .collect()
}

/// The dependencies between siblings: each lifted to the children of the two modules'
/// nearest common parent; none between a module and its own parent or child.
fn between_siblings(
    deps: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, used) in deps {
        for to in used {
            let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue;
            }
            out.entry(from[..=common].to_vec())
                .or_default()
                .insert(to[..=common].to_vec());
        }
    }
    out
}

/// The loops among siblings: each a module and the path by which it names itself again.
fn loops(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    let mut found = Vec::new();
    for start in edges.keys() {
        // A walk over what `start` names, back to `start`: the first path found.
        let mut seen = BTreeSet::new();
        let mut stack = vec![vec![start.clone()]];
        while let Some(path) = stack.pop() {
            let last = path.last().expect("a path");
            for next in edges.get(last).into_iter().flatten() {
                if next == start {
                    let names: Vec<String> = path.iter().map(|m| m.join("::")).collect();
                    found.push(format!("{} -> {}", names.join(" -> "), start.join("::")));
                    stack.clear();
                    break;
                }
                if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push(longer);
                }
            }
        }
    }
    found
}

#[test]
fn no_module_names_a_sibling_that_names_it_back() {
    let deps = dependencies(&project("src"));
    let edges = between_siblings(&deps);
    for layer in ["views", "ui", "playground", "report"] {
        assert!(
            edges.keys().any(|m| m.first().is_some_and(|f| f == layer)),
            "{layer}'s modules are read"
        );
    }
    let found: Vec<String> = loops(&edges)
        .into_iter()
        .filter(|l| !NOT_YET.iter().any(|m| l.starts_with(&format!("{m}::"))))
        .collect();
    assert!(
        found.is_empty(),
        "modules that name each other:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_loop_check_reads_groups_chains_and_lifts_to_siblings() {
    let module: Vec<String> = ["ui", "paint", "chips"].map(String::from).to_vec();
    let code = code_only(
        "use super::super::colours::{mix, Colours};\n\
         use crate::views::{frame::Card, geometry::{Rect, Step}};\n\
         fn f() { super::fills::stripes(); self::x::y(); }\n",
    );
    let named: Vec<String> = named(&code, &module).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        named,
        [
            "views::frame::Card",
            "views::geometry::Rect",
            "views::geometry::Step",
            "ui::colours::mix",
            "ui::colours::Colours",
            "ui::paint::fills::stripes",
            "ui::paint::chips::x::y"
        ]
    );
    let path = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    let deps = BTreeMap::from([
        (
            path("ui::paint::chips"),
            BTreeSet::from([path("ui::colours"), path("ui::paint")]),
        ),
        (
            path("ui::colours"),
            BTreeSet::from([path("ui::paint::fills")]),
        ),
    ]);
    let edges = between_siblings(&deps);
    assert_eq!(
        edges.get(&path("ui::paint")),
        Some(&BTreeSet::from([path("ui::colours")])),
        "lifted; the parent named is no sibling"
    );
    assert_eq!(
        loops(&edges),
        [
            "ui::colours -> ui::paint -> ui::colours",
            "ui::paint -> ui::colours -> ui::paint"
        ]
    );
}

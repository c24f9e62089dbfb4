//! The crate's layers depend one way (see `src/lib.rs`): each module may name only the layers
//! above it. Read off the source: every path a file's code names through `crate::` (alone or
//! in a `{...}` group) or through `super::` chains that climb to the crate's root, in all of a
//! file but its test code (comments and strings aside). Test code, `#[cfg(test)]` items and
//! the files of test modules, may build whatever it needs to check a module.

use crate::harness::project;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The modules a top-level module may use, besides itself.
fn allowed(module: &str) -> Option<&'static [&'static str]> {
    const APP: &[&str] = &[
        "sort",
        "model",
        "format",
        "assignor",
        "engine",
        "history",
        "views",
        "compare",
        "presets",
        "playground",
        "report",
        "sweep",
    ];
    Some(match module {
        "sort" => &[],
        "model" => &["sort"],
        "format" => &["sort", "model"],
        "assignor" => &["sort", "model"],
        "engine" => &["sort", "model", "assignor"],
        "history" => &["sort", "model", "assignor", "engine"],
        "views" => &["sort", "model", "assignor", "engine", "history"],
        "compare" | "presets" | "playground" | "report" | "sweep" => APP,
        "ui" => APP,
        _ => return None,
    })
}

pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a Rust file with its comments, strings and character literals blanked (so a
/// path named in a doc comment or a message is not a dependency), lines kept.
pub(super) fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('"') | Some('#'))
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < b.len() {
                if b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                blank(&mut out, b[j]);
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                if let Some(&ch) = b.get(i) {
                    blank(&mut out, ch);
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' && (b.get(i + 2) == Some(&'\'') || next == Some('\\')) {
            // A character literal ('x' or '\n'); a lifetime has no closing quote.
            let mut j = i + 1;
            if b.get(j) == Some(&'\\') {
                j += 1;
            }
            while j < b.len() && b[j] != '\'' {
                j += 1;
            }
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The index just past the item that starts at `from`: through its `;`, or through the `}`
/// that closes its first `{`.
fn item_end(code: &[u8], from: usize) -> usize {
    let mut depth = 0usize;
    let mut i = from;
    while i < code.len() {
        match code[i] {
            b';' if depth == 0 => return i + 1,
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && code[i] == b'}' {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    code.len()
}

/// `code` without its `#[cfg(test)]` items, and the names of the test modules it declares
/// in files of their own (`#[cfg(test)] mod review_tests;`).
pub(super) fn without_tests(code: &str) -> (String, Vec<String>) {
    const MARK: &str = "#[cfg(test)]";
    let bytes = code.as_bytes();
    let mut kept = String::with_capacity(code.len());
    let mut test_files = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find(MARK) {
        let start = at + found;
        kept.push_str(&code[at..start]);
        let item = start + MARK.len();
        let end = item_end(bytes, item);
        let words: Vec<&str> = code[item..end]
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ';'))
            .filter(|w| !w.is_empty())
            .collect();
        if let [.., "mod", name] = words.as_slice() {
            if let Some(name) = name.strip_suffix(';') {
                test_files.push(name.to_string());
            }
        }
        at = end;
    }
    kept.push_str(&code[at..]);
    (kept, test_files)
}

/// The first identifier at the start of `s` (after spaces).
pub(super) fn ident(s: &str) -> &str {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The names right after a path's root: `model` in `model::Task`, or each first name in a
/// `{model::Task, views::{a, b}}` group.
fn first_names(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    let Some(group) = rest.strip_prefix('{') else {
        return vec![ident(rest).to_string()];
    };
    let mut names = Vec::new();
    let mut depth = 0;
    let mut element_start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => element_start = true,
            c if element_start && !c.is_whitespace() => {
                names.push(ident(&group[i..]).to_string());
                element_start = false;
            }
            _ => {}
        }
    }
    names
}

/// Every top-level module a file's code names, given the file's module path (`["assignor",
/// "kip441", "client"]`).
fn used_modules(code: &str, module: &[String]) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let word_start =
        |at: usize| !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
    for (at, _) in code.match_indices("crate") {
        let rest = code[at + "crate".len()..].trim_start();
        if word_start(at) && rest.starts_with("::") {
            used.extend(first_names(&rest[2..]));
        }
    }
    for (at, _) in code.match_indices("super") {
        if !word_start(at) {
            continue;
        }
        // Count the chain of `super::`, then see where it lands.
        let mut rest = &code[at..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super") {
            let r = r.trim_start();
            let Some(r) = r.strip_prefix("::") else {
                break;
            };
            climbs += 1;
            rest = r.trim_start();
        }
        if climbs > 0 && climbs >= module.len() {
            used.extend(first_names(rest));
        }
    }
    used.retain(|u| !u.is_empty() && u != "self");
    used
}

/// A file's module path: `src/assignor/kip441/mod.rs` is `["assignor", "kip441"]`.
pub(super) fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .map(|c| c.trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Where a module declared in the file at `relative` keeps its code (a file or a folder).
pub(super) fn child_module_path(relative: &Path, name: &str) -> PathBuf {
    let dir = if relative.file_name().is_some_and(|f| f == "mod.rs") {
        relative.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        relative.with_extension("")
    };
    dir.join(name)
}

/// The files under `src` whose layer is checked, and every broken dependency found.
fn check_layers(src: &Path) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
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
    let mut checked = 0;
    let mut broken = Vec::new();
    for (relative, code) in &parsed {
        let module = module_path(relative);
        let Some(top) = module.first() else { continue };
        let Some(allowed) = allowed(top) else {
            continue;
        };
        if is_test(relative) {
            continue;
        }
        checked += 1;
        for used in used_modules(code, &module) {
            if used != *top && !allowed.contains(&used.as_str()) {
                broken.push(format!("{} uses crate::{used}", relative.display()));
            }
        }
    }
    (checked, broken)
}

#[test]
fn each_layer_uses_only_the_layers_above_it() {
    let src = project("src");
    let (checked, broken) = check_layers(&src);
    let mut all = Vec::new();
    rust_files(&src, &mut all);
    assert!(
        checked * 10 >= all.len() * 7,
        "only {checked} of {} files checked",
        all.len()
    );
    assert!(
        broken.is_empty(),
        "upward dependencies:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_layer_check_sees_groups_super_chains_and_code_after_the_tests() {
    let module: Vec<String> = ["model", "command"].map(String::from).to_vec();
    let code = code_only(
        "//! Mentions crate::ui in a comment.\n\
         use crate::{engine::Engine, views::{a, b}};\n\
         #[cfg(test)]\nmod tests { use crate::report; }\n\
         #[cfg(test)]\nmod review_tests;\n\
         fn f() { let s = \"crate::playground::tour\"; super::super::history::Run::new(); }\n\
         fn g() { super::Task; crate :: link::x(); }\n",
    );
    let (code, tests) = without_tests(&code);
    assert_eq!(tests, ["review_tests"]);
    let used: Vec<String> = used_modules(&code, &module).into_iter().collect();
    assert_eq!(used, ["engine", "history", "link", "views"]);
    assert_eq!(
        child_module_path(Path::new("playground/mod.rs"), "tests"),
        Path::new("playground/tests")
    );
    assert_eq!(
        child_module_path(Path::new("playground/tests.rs"), "operations"),
        Path::new("playground/tests/operations")
    );
    assert_eq!(
        module_path(Path::new("assignor/kip441/mod.rs")),
        ["assignor", "kip441"]
    );
}

#[test]
fn every_source_file_starts_by_saying_its_job() {
    let mut files = Vec::new();
    rust_files(&project("src"), &mut files);
    let silent: Vec<String> = files
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("source file");
            !text.trim_start().starts_with("//!")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(silent.is_empty(), "files without a //! comment: {silent:?}");
}

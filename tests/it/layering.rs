//! The crate's layers depend one way (see `src/lib.rs`): each module may name only the layers
//! above it. Read off the source: every `crate::<module>` a file mentions.

use crate::harness::project;
use std::path::Path;

/// The modules a top-level module may use, besides itself.
fn allowed(module: &str) -> Option<&'static [&'static str]> {
    const APP: &[&str] = &[
        "model",
        "format",
        "assignor",
        "engine",
        "history",
        "views",
        "compare",
        "session",
        "link",
        "presets",
        "tour",
        "glossary",
        "playground",
        "report",
    ];
    Some(match module {
        "model" => &[],
        "format" => &["model"],
        "assignor" => &["model"],
        "engine" => &["model", "assignor"],
        "history" => &["model", "assignor", "engine"],
        "views" => &["model", "assignor", "engine", "history"],
        "compare" | "session" | "link" | "presets" | "tour" | "glossary" | "playground"
        | "report" => APP,
        "ui" => APP,
        _ => return None,
    })
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn each_layer_uses_only_the_layers_above_it() {
    let src = project("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut broken = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&src).expect("inside src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or_default()
            .trim_end_matches(".rs")
            .to_string();
        let Some(allowed) = allowed(&top) else {
            continue;
        };
        checked += 1;
        let text = std::fs::read_to_string(&path).expect("source file");
        // Unit tests may build whatever they need to check a module.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (at, _) in code.match_indices("crate::") {
            let used: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if used != top && !allowed.contains(&used.as_str()) && !used.is_empty() {
                broken.push(format!("{} uses crate::{used}", relative.display()));
            }
        }
    }
    assert!(checked >= 30, "only {checked} files checked");
    assert!(
        broken.is_empty(),
        "upward dependencies:\n{}",
        broken.join("\n")
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

//! The README's example outputs are the command line's real output: each block marked
//! `<!-- generated: handoff ... -->` must equal what that command prints. Run with
//! `UPDATE_README=1` to regenerate them after an intended change.

use crate::harness::{handoff, project, stderr};

fn handoff_output(args: &[&str]) -> String {
    let out = handoff(args, None);
    assert!(out.status.success(), "handoff {args:?}: {}", stderr(&out));
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn the_readme_shows_real_output() {
    let path = project("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let marker = "<!-- generated: handoff ";
    let mut updated = String::new();
    let mut rest = readme.as_str();
    let mut blocks = 0;
    while let Some(start) = rest.find(marker) {
        let line_end = start + rest[start..].find("-->").expect("marker closes") + 3;
        let args: Vec<&str> = rest[start + marker.len()..line_end - 3]
            .split_whitespace()
            .collect();
        let end = rest[line_end..].find("<!-- end -->").expect("block ends") + line_end;
        let expected = format!("\n```text\n{}```\n", handoff_output(&args));
        let actual = &rest[line_end..end];
        if std::env::var_os("UPDATE_README").is_none() {
            assert_eq!(
                actual,
                expected,
                "README block for `handoff {}` is stale",
                args.join(" ")
            );
        }
        updated.push_str(&rest[..line_end]);
        updated.push_str(&expected);
        rest = &rest[end..];
        blocks += 1;
    }
    updated.push_str(rest);
    assert!(
        blocks >= 3,
        "the README shows the notation and both comparisons"
    );
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(&path, updated).expect("write README.md");
    }
}

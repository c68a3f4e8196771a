//! What scripts/bench.sh sets up: the built-in SDK rows the run names (SDK, --sdk, a suite
//! file), read from the line the dry run prints, and never a row of the user's own.

mod common;

use common::{harness, root, scratch};

const LINE: &str = "set up: scripts/setup.sh ";

/// The SDK rows the dry run of `args` (with `env`) says to set up.
fn setup_rows(args: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let out =
        harness().args(["run", "--dry-run"]).args(args).envs(env.iter().copied()).current_dir(root()).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix(LINE)).collect();
    assert_eq!(lines.len(), 1, "one setup line: {text}");
    lines[0].split(' ').map(str::to_owned).collect()
}

#[test]
fn every_row_a_suite_or_sdk_names_is_set_up() {
    assert_eq!(
        setup_rows(&["-f", "suites/pr4076.toml"], &[]),
        ["rust", "node", "java", "go", "csharp", "python", "iggy"]
    );
    assert_eq!(
        setup_rows(&["--sdk", "node-lean,iggy,iggy-python", "--msg-id", "uuid,fast"], &[]),
        ["rust", "node-lean", "iggy", "iggy-python"]
    );
    assert_eq!(setup_rows(&[], &[("SDK", "go,csharp")]), ["rust", "go", "csharp"]);
    assert_eq!(setup_rows(&[], &[]), ["rust"], "the default run, and the control's row is always there");
}

#[test]
fn rows_of_the_users_own_are_not_set_up() {
    let producer = format!("{} produce", env!("CARGO_BIN_EXE_harness"));
    let (master, branch) = (format!("master={producer}"), format!("branch={producer}"));
    assert_eq!(setup_rows(&["--producer", &master, "--producer", &branch, "--msg-id", "fast"], &[]), ["rust"]);
    assert_eq!(setup_rows(&["--producer", &master, "--sdk", "master,go", "--msg-id", "fast"], &[]), ["rust", "go"]);
    let dir = scratch("setup-rows");
    let suite = dir.join("mine.toml");
    std::fs::write(
        &suite,
        format!("sdk = [\"node\", \"master\"]\nmsg_id = \"fast\"\n\n[producers]\nmaster = {producer:?}\n"),
    )
    .unwrap();
    assert_eq!(setup_rows(&["-f", suite.to_str().unwrap()], &[]), ["rust", "node"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_sh_sets_up_what_the_setup_line_names() {
    let script = std::fs::read_to_string(root().join("scripts/bench.sh")).unwrap();
    assert!(script.contains(&format!("sed -n 's|^{LINE}||p'")), "scripts/bench.sh reads the dry run's `{LINE}` line");
}

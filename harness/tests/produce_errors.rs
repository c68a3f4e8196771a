//! `harness produce` refuses a value it cannot read in the runner's shape: one `error:` line
//! naming the setting as it was given, exit 1.

mod common;

use common::harness;

fn refusal(flags: &[&str], env: &[(&str, &str)]) -> String {
    let out = harness().arg("produce").args(flags).envs(env.iter().copied()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    stderr.trim_end().to_owned()
}

#[test]
fn unreadable_values_are_one_line_naming_the_setting() {
    assert_eq!(refusal(&[], &[("MODE", "nope")]), "error: MODE=nope is unknown; expected producer or mint");
    assert_eq!(refusal(&["--mode", "nope"], &[]), "error: --mode nope is unknown; expected producer or mint");
    assert_eq!(refusal(&[], &[("BITS", "abc")]), "error: BITS=abc is not valid: invalid digit found in string");
    assert_eq!(refusal(&["--bits=abc"], &[]), "error: --bits abc is not valid: invalid digit found in string");
}

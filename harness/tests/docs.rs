//! The documents' figures come from the committed results: `harness docs --check` fails when a
//! generated block of README.md, idgen/README.md, docs/ or results/README.md differs from what
//! `harness docs` would write, or when a figure stands in their prose outside a block.

#[test]
fn every_generated_block_matches_the_committed_results() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_harness")).args(["docs", "--check"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

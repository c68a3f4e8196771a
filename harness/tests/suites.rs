//! Suite files as a user writes them: the dry run shows what will run and what differs, bad
//! files are refused in one line, and budgets decide the exit code.

mod common;

use common::{fails_with, harness, root, scratch};

fn dry_run(suite: &str, env: &[(&str, &str)]) -> String {
    let out = harness()
        .args(["run", "-f", suite, "--dry-run"])
        .envs(env.iter().copied())
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_seed_suite_resolves_both_tables_for_every_sdk() {
    let text = dry_run("suites/pr4076.toml", &[]);
    assert!(text.starts_with("suite pr4076 (suites/pr4076.toml): 2 workload(s)"), "{text}");
    let line = |field: &str| {
        text.lines().find(|l| l.starts_with(field)).unwrap_or_else(|| panic!("no {field} line in {text}"))
    };
    assert!(line("sdk ").contains("rust,node,java,go,csharp,python"));
    assert!(line("msg_id ").contains("uuid,fast") && line("repeat ").contains("10"));
    assert!(line("pack ").ends_with("<- differs") && !line("bits ").ends_with("<- differs"));
    assert!(text.contains("pack167 vs bits42 (meant to vary pack): pack 1 -> 167"), "{text}");
    assert!(!text.contains("warning:"), "{text}");
}

#[test]
fn every_shipped_suite_resolves_without_a_warning() {
    let mut names: Vec<_> = std::fs::read_dir(root().join("suites"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    for name in names {
        let text = dry_run(&format!("suites/{name}"), &[]);
        assert!(text.starts_with(&format!("suite {} (suites/{name})", name.trim_end_matches(".toml"))), "{text}");
        assert!(!text.contains("warning:"), "suites/{name}: {text}");
    }
}

#[test]
fn flags_and_variables_override_the_file() {
    let text =
        dry_run("suites/pr4076.toml", &[("MESSAGES", "20000"), ("REPEAT", "3"), ("SDK", "rust"), ("NAME", "mine")]);
    // NAME too, so the command a report records writes that report again.
    assert!(text.contains("overridden from the command line: SDK=rust REPEAT=3 MESSAGES=20000 NAME=mine"), "{text}");
    let messages = text.lines().find(|l| l.starts_with("messages")).unwrap();
    assert_eq!(messages.split_whitespace().collect::<Vec<_>>(), ["messages", "20000", "20000"]);
    assert!(text.contains("warning: workload bits42: REPEAT=3 is too few runs for a trustworthy p-value"), "{text}");
}

#[test]
fn workloads_meant_to_differ_in_one_field_are_checked() {
    let dir = scratch("suite-intent");
    let suite = dir.join("intent.toml");
    std::fs::write(&suite, "[[workload]]\nname = \"a\"\n\n[[workload]]\nname = \"b\"\ncompare_with = \"a\"\nvaries = \"pack\"\npack = 167\nbatch = 500\n").unwrap();
    let text = dry_run(suite.to_str().unwrap(), &[]);
    assert!(text.contains("b vs a (meant to vary pack): pack 1 -> 167, batch 1000 -> 500"), "{text}");
    assert!(
        text.contains(
            "warning: workloads a and b are meant to differ only in pack, but also differ in batch (1000 vs 500)"
        ),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_suites_give_one_line_and_a_non_zero_exit() {
    let dir = scratch("suite-bad");
    let cases = [
        ("field.toml", "repeat = 3\nbitz = 4\n", "unknown field `bitz`"),
        (
            "reference.toml",
            "[[workload]]\nname = \"a\"\ncompare_with = \"z\"\nvaries = \"pack\"\n",
            "workload \"a\": compare_with = \"z\" names no workload",
        ),
        (
            "varies.toml",
            "[[workload]]\nname = \"a\"\n[[workload]]\nname = \"b\"\ncompare_with = \"a\"\nvaries = \"colour\"\n",
            "workload \"b\": varies = \"colour\" is not a setting",
        ),
        (
            "budget.toml",
            "[expect]\nspeedup_at_least = -2\n",
            "workload \"budget\": expect.speedup_at_least = -2 is impossible",
        ),
        (
            "budget-ref.toml",
            "[expect]\nwithin_noise_of = \"preset\"\n",
            "workload \"budget-ref\": expect.within_noise_of = \"preset\" is not a MSG_ID",
        ),
        ("settings.toml", "[[workload]]\nname = \"a\"\nbatch = 0\n", "workload \"a\": BATCH=0 is out of range"),
        ("syntax.toml", "repeat = 3\nbits = \n", "line 2:"),
        ("empty.toml", "repeat = 3\nworkload = []\n", "`workload` is empty"),
        (
            "budget-type.toml",
            "[expect]\nir_per_id_below = \"lots\"\n",
            "budget-type.toml: expect.ir_per_id_below: invalid type: string \"lots\"",
        ),
        ("expect-type.toml", "expect = 3\n", "`expect` must be a table ([expect]), not integer"),
        (
            "head-type.toml",
            "[[workload]]\nname = 5\n",
            "[[workload]] name: invalid type: integer `5`, expected a string",
        ),
        ("self.toml", "[expect]\nfaster_than = \"fast\"\n", "expect.faster_than = \"fast\" is the budget's own arm"),
    ];
    for (file, text, expected) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let shown = path.to_str().unwrap();
        fails_with(&["run", "-f", shown, "--dry-run"], shown);
        let out = harness().args(["run", "-f", shown, "--dry-run"]).output().unwrap();
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(expected),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_impossible_budget_fails_the_run_with_its_explanation() {
    let dir = scratch("suite-budget");
    let suite = dir.join("gate.toml");
    std::fs::write(
        &suite,
        "repeat = 2\nmessages = 20000\nsyscalls = false\n\n[[workload]]\nname = \"gate\"\n\n[workload.expect]\nspeedup_at_least = 1000\np99_9_below = \"10s\"\n",
    )
    .unwrap();
    let out = harness()
        .args(["run", "-f", suite.to_str().unwrap(), "--format", "md,json"])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("Budgets of gate: FAILED (1 of 2 met)"), "{stdout}");
    assert!(stdout.contains("FAILED  rust fast: speedup_at_least = 1000\n  observed: "), "{stdout}");
    assert!(stdout.contains("the budget asks for at least 1000x"), "{stdout}");
    assert!(stderr.trim_end().ends_with("error: 1 budget(s) FAILED (gate: rust fast speedup_at_least = 1000); see the explanation above and in the report"), "{stderr}");
    let md = std::fs::read_to_string(dir.join("gate.md")).unwrap();
    assert!(md.contains("FAILED  rust fast: speedup_at_least = 1000") && md.contains("meaning:"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("gate.json")).unwrap()).unwrap();
    let checks = json["workloads"][0]["budgets"].as_array().unwrap();
    assert_eq!(checks.iter().map(|c| c["passed"].as_bool().unwrap()).collect::<Vec<_>>(), [false, true]);
    assert!(!dir.join("gate.html").exists(), "only the formats asked for");
    std::fs::remove_dir_all(dir).unwrap();
}

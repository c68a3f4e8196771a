//! Rows a user defines at run time: `--producer NAME=COMMAND` (repeatable) or a suite's
//! `[producers]` table. The command is any program that follows the contract in sdks/README.md
//! (their SDK at master and at a branch, say); the runner starts it with the contract's settings
//! and never builds it.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Serialize;

/// A user's row: its name and the command, split into words as a POSIX shell would.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerSpec {
    pub name: String,
    pub argv: Vec<String>,
}

impl ProducerSpec {
    /// Parses `NAME=COMMAND`; `taken` are the built-in rows' names, which a user's row may not reuse.
    pub fn parse(spec: &str, taken: &[&str]) -> anyhow::Result<ProducerSpec> {
        let (name, command) =
            spec.split_once('=').with_context(|| format!("--producer {spec:?} has no `=`: write NAME=COMMAND"))?;
        ProducerSpec::new(name.trim(), command, taken)
    }

    /// A row from a name and its command line (a suite's `[producers]` entry).
    pub fn new(name: &str, command: &str, taken: &[&str]) -> anyhow::Result<ProducerSpec> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
            bail!("--producer name {name:?} must be letters, digits, '-', '_' or '.'");
        }
        if taken.contains(&name) {
            bail!("--producer {name}: the name is a built-in SDK row ({}); choose another", taken.join(", "));
        }
        let argv = shlex::split(command)
            .with_context(|| format!("--producer {name}: the command {command:?} has an unclosed quote"))?;
        let argv: Vec<String> = argv.into_iter().map(|w| expand_home(&w)).collect();
        let Some(program) = argv.first() else { bail!("--producer {name}: the command is empty") };
        if resolve(program).is_none() {
            bail!("--producer {name}: the command `{program}` is not found (not an executable file, nor on PATH)");
        }
        Ok(ProducerSpec { name: name.to_owned(), argv })
    }

    /// The program to start: a path as given, or the first match on PATH.
    pub fn program(&self) -> PathBuf {
        resolve(&self.argv[0]).expect("checked when parsed")
    }

    /// The command as a user would type it again.
    pub fn command_line(&self) -> String {
        shlex::try_join(self.argv.iter().map(String::as_str)).unwrap_or_else(|_| self.argv.join(" "))
    }
}

/// `~/x` as a shell would expand it; nothing else is expanded.
fn expand_home(word: &str) -> String {
    match (word.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest).to_string_lossy().into_owned(),
        _ => word.to_owned(),
    }
}

/// `program` as a shell would find it: a path as given, or the first match on PATH; an
/// executable file either way (a file without the x bit would fail every run).
pub fn resolve(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if program.contains('/') {
        return executable(Path::new(program)).then(|| PathBuf::from(program));
    }
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(program)).find(|p| executable(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAKEN: &[&str] = &["rust", "node"];

    #[test]
    fn a_spec_is_a_name_and_a_shell_split_command() {
        let spec = ProducerSpec::parse("mine=sh -c 'echo \"a b\"'", TAKEN).unwrap();
        assert_eq!(spec.name, "mine");
        assert_eq!(spec.argv, ["sh", "-c", "echo \"a b\""]);
        assert!(spec.program().ends_with("sh"));
        assert_eq!(ProducerSpec::parse(&format!("again={}", spec.command_line()), TAKEN).unwrap().argv, spec.argv);
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let err = |s: &str| ProducerSpec::parse(s, TAKEN).unwrap_err().to_string();
        assert!(err("no-equals-sign").contains("has no `=`"));
        assert!(err("x=").contains("command is empty"));
        assert!(err("x=   ").contains("command is empty"));
        assert!(err("=sh").contains("name \"\""));
        assert!(err("node=sh").contains("built-in SDK row"));
        assert!(err("x=surely-not-a-program-here --flag").contains("`surely-not-a-program-here` is not found"));
        assert!(err("x=./no/such/file").contains("not found"));
        assert!(
            err("x=/etc/passwd").contains("`/etc/passwd` is not found (not an executable file"),
            "a file without the x bit"
        );
        assert!(err("x=sh 'open").contains("unclosed quote"));
    }
}

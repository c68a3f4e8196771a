//! The one table of SDK rows: how to build each producer and how to start it (sdks/README.md).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use super::producer_spec;

#[derive(Debug)]
pub struct Sdk {
    pub name: &'static str,
    /// MSG_ID names its producer knows.
    pub msg_ids: &'static [&'static str],
    /// SEND_PATH, sent to its producer: `lean` or `faithful` (sdks/README.md).
    pub send_path: &'static str,
    /// Programs that must be on PATH, checked before building.
    needs: &'static [&'static str],
    /// The build script, relative to the repo root (the Rust row is this binary itself).
    build: Option<&'static str>,
    /// The producer command, relative to the repo root; empty for the Rust row.
    producer: &'static [&'static str],
    /// Prints the toolchain's version, recorded with the results.
    pub version: &'static [&'static str],
}

pub const SDKS: &[Sdk] = &[
    Sdk {
        name: "rust",
        msg_ids: &["uuid", "threadrng", "fast", "xoshiro", "ospool", "pooled", "preset", "counter", "prebuilt"],
        send_path: "lean",
        needs: &[],
        build: None,
        producer: &[],
        version: &["rustc", "--version"],
    },
    Sdk {
        name: "node",
        msg_ids: &["uuid", "fast", "preset", "counter"],
        send_path: "faithful",
        needs: &["node", "npm"],
        build: Some("sdks/node/build.sh"),
        producer: &["node", "sdks/node/src/producer.js"],
        version: &["node", "--version"],
    },
    Sdk {
        name: "node-lean",
        msg_ids: &["uuid", "randomuuid", "fast", "preset", "counter"],
        send_path: "lean",
        needs: &["node", "npm"],
        build: Some("sdks/node/build.sh"),
        producer: &["node", "sdks/node/src/producer.js"],
        version: &["node", "--version"],
    },
    Sdk {
        name: "java",
        msg_ids: &["uuid", "fast", "preset", "counter"],
        send_path: "faithful",
        needs: &["java", "mvn"],
        build: Some("sdks/java/build.sh"),
        producer: &["sdks/java/produce.sh"],
        version: &["java", "-version"],
    },
    Sdk {
        name: "java-lean",
        msg_ids: &["uuid", "securerandom-pool", "aesctr", "fast", "threadlocalrandom", "preset", "counter"],
        send_path: "lean",
        needs: &["java", "mvn"],
        build: Some("sdks/java/build.sh"),
        producer: &["sdks/java/produce.sh"],
        version: &["java", "-version"],
    },
    Sdk {
        name: "go",
        msg_ids: &["uuid", "fast", "preset", "counter"],
        send_path: "faithful",
        needs: &["go"],
        build: Some("sdks/go/build.sh"),
        producer: &["sdks/go/bin/producer"],
        version: &["go", "version"],
    },
    Sdk {
        name: "go-lean",
        msg_ids: &["uuid", "uuidpool", "cryptorand", "fast", "preset", "counter"],
        send_path: "lean",
        needs: &["go"],
        build: Some("sdks/go/build.sh"),
        producer: &["sdks/go/bin/producer"],
        version: &["go", "version"],
    },
    Sdk {
        name: "csharp",
        msg_ids: &["uuid", "fast", "preset", "counter"],
        send_path: "faithful",
        needs: &["mono", "mcs"],
        build: Some("sdks/csharp/build.sh"),
        producer: &["mono", "sdks/csharp/bin/Producer.exe"],
        version: &["mono", "--version"],
    },
    Sdk {
        name: "csharp-lean",
        msg_ids: &["uuid", "rngpool", "xoshiro", "fast", "preset", "counter"],
        send_path: "lean",
        needs: &["mono", "mcs"],
        build: Some("sdks/csharp/build.sh"),
        producer: &["mono", "sdks/csharp/bin/Producer.exe"],
        version: &["mono", "--version"],
    },
    Sdk {
        name: "python",
        msg_ids: &["uuid", "fast", "mt", "preset", "counter"],
        send_path: "lean",
        needs: &["python3"],
        build: Some("sdks/python/build.sh"),
        producer: &["python3", "sdks/python/producer.py"],
        version: &["python3", "--version"],
    },
    Sdk {
        name: "iggy",
        // The released Iggy Rust client: `sdk` is its own UUIDv4 path (id 0), `uuid` an alias.
        msg_ids: &["sdk", "uuid", "fast", "preset", "counter"],
        send_path: "faithful",
        needs: &["cargo"],
        build: Some("sdks/iggy/build.sh"),
        producer: &["target/release/iggy-producer"],
        version: &["rustc", "--version"],
    },
    Sdk {
        name: "iggy-python",
        // The released Iggy Python client (PyPI): `sdk` lets it mint, `uuid` an alias.
        msg_ids: &["sdk", "uuid", "fast", "preset", "counter"],
        send_path: "faithful",
        needs: &["python3"],
        build: Some("sdks/iggy-python/build.sh"),
        producer: &["python3", "sdks/iggy-python/producer.py"],
        version: &["python3", "--version"],
    },
];

pub fn find(name: &str) -> anyhow::Result<&'static Sdk> {
    SDKS.iter().find(|s| s.name == name).with_context(|| {
        format!("SDK={name} is unknown; expected one of {}", SDKS.iter().map(|s| s.name).collect::<Vec<_>>().join(", "))
    })
}

/// The one lock-step set every row of one's own (`--producer`) shares.
pub const OWN_ROWS: &str = "rows of one's own";

/// The lock-step set a row's arms run in: a built-in row's own, or the one of rows of one's own.
pub fn set_of(row: &str) -> &str {
    if find(row).is_ok() { row } else { OWN_ROWS }
}

/// The repository root: where sdks/ and results/ live.
pub fn repo_root() -> PathBuf {
    std::env::var_os("MINTBENCH_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("harness/ has a parent").to_path_buf())
}

impl Sdk {
    pub fn check_msg_id(&self, msg_id: &str) -> anyhow::Result<()> {
        if !self.msg_ids.contains(&msg_id) {
            bail!("MSG_ID={msg_id} is unknown to SDK {}; expected one of {}", self.name, self.msg_ids.join(", "));
        }
        Ok(())
    }

    /// Checks the toolchain and builds the producer; quick when nothing changed.
    pub fn build(&self, root: &Path) -> anyhow::Result<()> {
        for program in self.needs {
            if producer_spec::resolve(program).is_none() {
                bail!("SDK {} needs `{program}` on PATH: run scripts/setup.sh", self.name);
            }
        }
        let Some(script) = self.build else { return Ok(()) };
        let output = Command::new("bash")
            .arg(root.join(script))
            .current_dir(root)
            .output()
            .with_context(|| format!("cannot run {script}"))?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output");
            bail!("building SDK {} failed ({script}): {last}", self.name);
        }
        Ok(())
    }

    /// The producer command, ready for its environment.
    pub fn command(&self, root: &Path) -> anyhow::Result<Command> {
        let mut cmd = match self.producer.split_first() {
            None => {
                let mut c = Command::new(std::env::current_exe().context("cannot locate the harness binary")?);
                c.arg("produce");
                c
            }
            Some((program, args)) => {
                let local = root.join(program);
                let mut c = Command::new(if local.exists() { local.into_os_string() } else { program.into() });
                c.args(args);
                c
            }
        };
        cmd.current_dir(root);
        Ok(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sdk_has_the_contract_strategies() {
        for sdk in SDKS {
            for required in ["uuid", "fast", "preset"] {
                assert!(sdk.check_msg_id(required).is_ok(), "{} lacks {required}", sdk.name);
            }
        }
    }

    #[test]
    fn unknown_names_are_refused_with_the_choices() {
        assert!(find("cobol").unwrap_err().to_string().starts_with("SDK=cobol is unknown; expected one of rust, node"));
        assert!(find("rust").unwrap().check_msg_id("sha1").unwrap_err().to_string().contains("expected one of uuid"));
    }

    #[test]
    fn every_row_names_a_send_path() {
        for sdk in SDKS {
            assert!(["lean", "faithful"].contains(&sdk.send_path), "{}: SEND_PATH={}", sdk.name, sdk.send_path);
        }
        assert_eq!((find("node").unwrap().send_path, find("node-lean").unwrap().send_path), ("faithful", "lean"));
    }

    #[test]
    fn build_scripts_and_local_programs_exist() {
        let root = repo_root();
        for sdk in SDKS {
            if let Some(script) = sdk.build {
                assert!(root.join(script).is_file(), "{script} is missing");
            }
        }
    }
}

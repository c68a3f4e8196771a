//! The per-arm measurement columns, one list for every table that shows them. MODE=mint
//! sends nothing, so it has no latency, sends or receives, and its figures are per ID.

use crate::producer::Mode;
use crate::runner::analysis::ArmAnalysis;
use crate::runner::figures::fixed;
use crate::runner::records::{Latency, SyscallCounts};

/// One column: its header and how an arm's cell reads (`-` where there is no figure).
pub struct Column {
    pub header: String,
    pub cell: fn(&ArmAnalysis) -> String,
}

/// What one message of `mode` is: a message sent, or an ID minted.
pub fn per(mode: Mode) -> &'static str {
    match mode {
        Mode::Producer => "msg",
        Mode::Mint => "ID",
    }
}

fn us(a: &ArmAnalysis, pick: fn(&Latency) -> f64) -> String {
    fixed(a.latency.as_ref().map(|l| pick(l) / 1e3), 1)
}

fn syscalls(a: &ArmAnalysis, pick: fn(&SyscallCounts) -> f64, digits: usize) -> String {
    fixed(a.syscalls.as_ref().map(pick), digits)
}

/// The measurement columns of a workload in `mode`, in table order.
pub fn measured(mode: Mode) -> Vec<Column> {
    let per = per(mode);
    let network = mode == Mode::Producer;
    let column = |header: String, cell| Column { header, cell };
    let mut out = Vec::new();
    if network {
        out.push(column("batch RTT p50, us".into(), |a| us(a, |l| l.p50_ns)));
        out.push(column("p99, us".into(), |a| us(a, |l| l.p99_ns)));
        out.push(column("p99.9, us".into(), |a| us(a, |l| l.p999_ns)));
    }
    out.push(column(format!("syscalls/{per}"), |a| syscalls(a, |c| c.syscalls_per_msg, 3)));
    if network {
        out.push(column("sends/batch".into(), |a| syscalls(a, |c| c.sends_per_batch, 2)));
        out.push(column("recvs/batch".into(), |a| syscalls(a, |c| c.recvs_per_batch, 2)));
    }
    out.push(column("getrandom/1000 IDs".into(), |a| syscalls(a, |c| c.getrandom_per_1000_ids, 2)));
    out.push(column(format!("alloc B/{per}"), |a| fixed(a.alloc_bytes_per_msg, 1)));
    out.push(column(format!("CPU ns/{per}"), |a| fixed(a.cpu_ns_per_msg, 1)));
    out.push(column("steal %".into(), |a| fixed(a.steal_pct, 1)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(mode: Mode) -> Vec<String> {
        measured(mode).into_iter().map(|c| c.header).collect()
    }

    #[test]
    fn a_mint_run_has_no_network_columns_and_counts_per_id() {
        assert_eq!(headers(Mode::Mint), ["syscalls/ID", "getrandom/1000 IDs", "alloc B/ID", "CPU ns/ID", "steal %"]);
        assert_eq!(
            headers(Mode::Producer),
            [
                "batch RTT p50, us",
                "p99, us",
                "p99.9, us",
                "syscalls/msg",
                "sends/batch",
                "recvs/batch",
                "getrandom/1000 IDs",
                "alloc B/msg",
                "CPU ns/msg",
                "steal %"
            ]
        );
    }
}

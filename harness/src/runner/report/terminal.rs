//! What `harness run` prints when it is done: the Markdown tables, budgets and warnings.

use std::fmt::Write as _;

use super::contents::Report;
use super::markdown::{budgets, tables};
use super::render::Render;

pub struct Terminal;

impl Render for Terminal {
    fn render(&self, report: &Report) -> String {
        let mut out = String::new();
        for w in &report.workloads {
            if report.workloads.len() > 1 {
                let _ = writeln!(out, "\n== {}", w.name);
            }
            tables(w, &mut out);
            budgets(w, &mut out);
        }
        for warning in report.all_warnings() {
            let _ = writeln!(out, "\n{warning}");
        }
        out
    }
}

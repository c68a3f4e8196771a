//! The JSON report: the run's state as it is, every raw sample included.

use super::contents::Report;
use super::render::Render;

pub struct Json;

impl Render for Json {
    fn render(&self, report: &Report) -> String {
        serde_json::to_string_pretty(report).expect("a report serializes") + "\n"
    }
}

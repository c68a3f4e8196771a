//! What every report format is: a text made from the run's state.

use super::contents::Report;

pub trait Render {
    fn render(&self, report: &Report) -> String;
}

//! A table as the page shows it (a paper's table, the leaderboard, every metric of every run):
//! head rows of spanning cells over body rows, each cell with its quantity and exact value so a
//! reader of the page finds a figure by name. The page draws any of them the same way.

use serde::Serialize;

/// A table as a paper prints it: head rows of spanning cells over body rows.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Table {
    /// Its element's id.
    pub id: String,
    /// Its classes on the page.
    pub class: String,
    /// The head, top row first.
    pub head: Vec<Vec<Cell>>,
    /// The body.
    pub rows: Vec<Row>,
    /// What the table shows, as `data-` attributes (the view it follows).
    pub data: Vec<(String, String)>,
}

/// A cell of a paper's table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Cell {
    /// What it shows.
    pub text: String,
    /// Its quantity (`omega=inf`, `jobs`), so a reader of the page finds the value by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The exact value behind the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// What it means, on hover.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Rows and columns it spans (1 when 0).
    pub rows: u32,
    /// Columns it spans.
    pub cols: u32,
    /// Its class on the page (`rt`: a row label).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// A swatch of this palette index before the text: the colour of what it names in the charts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<usize>,
    /// A remark after the text, in grey (a change relative to a reference).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub aside: String,
    /// Marks after the text (`bound`, `stopped`), each with its class and what it means.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<Tag>,
    /// The cell is a button showing its text; the page acts on this (a policy's name).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub button: String,
}

/// A mark after a cell's text.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tag {
    /// Its classes on the page (`tag bound`).
    pub class: &'static str,
    /// What it says.
    pub text: String,
    /// What it means, on hover.
    pub title: String,
}

impl Cell {
    /// A cell of text alone.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), rows: 1, cols: 1, ..Cell::default() }
    }

    /// A cell showing `text` for the quantity `key` whose exact value is `value` (None: missing).
    pub fn number(text: impl Into<String>, key: impl Into<String>, value: Option<f64>) -> Cell {
        let value = Some(value.filter(|v| v.is_finite()).map_or("null".into(), |v| v.to_string()));
        Cell { key: Some(key.into()), value, ..Cell::text(text) }
    }

    /// A cell for a quantity that is a label (a month).
    pub fn label(text: impl Into<String>, key: impl Into<String>, value: impl Into<String>) -> Cell {
        Cell { key: Some(key.into()), value: Some(value.into()), ..Cell::text(text) }
    }

    /// The same cell with a hover text.
    pub fn title(mut self, title: impl Into<String>) -> Cell {
        self.title = title.into();
        self
    }

    /// The same cell spanning `rows` rows and `cols` columns.
    pub fn span(mut self, rows: u32, cols: u32) -> Cell {
        (self.rows, self.cols) = (rows, cols);
        self
    }

    /// The same cell in class `class`.
    pub fn class(mut self, class: &str) -> Cell {
        self.class = class.into();
        self
    }

    /// The same cell with `aside` after its text, in grey.
    pub fn aside(mut self, aside: impl Into<String>) -> Cell {
        self.aside = aside.into();
        self
    }

    /// The same cell with a swatch of palette index `colour`.
    pub fn colour(mut self, colour: usize) -> Cell {
        self.colour = Some(colour);
        self
    }

    /// The same cell with a mark after its text.
    pub fn tag(mut self, class: &'static str, text: impl Into<String>, title: impl Into<String>) -> Cell {
        self.tags.push(Tag { class, text: text.into(), title: title.into() });
        self
    }
}

/// A body row: its cells, its class and what it stands for (`month`, `runtime`), for readers.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Row {
    /// Its cells, left to right (a cell spanning rows from above is not repeated).
    pub cells: Vec<Cell>,
    /// Its class on the page (`total`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// What the row stands for, as `data-` attributes.
    pub data: Vec<(String, String)>,
}

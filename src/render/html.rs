//! HTML the page puts in place as it is (forms, tables, lists): written here so the page's
//! scripts stay wiring, and tested natively. Every text and attribute is escaped, since trace
//! names, users and queue names come from files the page was given.

use std::fmt;

use super::table::{Cell, Table};

/// Text escaped for HTML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An element being written: its tag, its attributes, then its content.
#[derive(Debug, Clone)]
pub struct El {
    tag: &'static str,
    attrs: String,
    body: String,
}

/// Elements with no content and no end tag.
const VOID: &[&str] = &["input", "br", "hr", "img"];

impl El {
    /// An empty element `<tag>`.
    pub fn new(tag: &'static str) -> El {
        El { tag, attrs: String::new(), body: String::new() }
    }

    /// The same element with attribute `key="value"`.
    pub fn attr(self, key: &str, value: impl AsRef<str>) -> El {
        self.put_attr(key, value.as_ref())
    }

    // One copy of the writing, however many types of string call it (the page's wasm stays small).
    #[inline(never)]
    fn put_attr(mut self, key: &str, value: &str) -> El {
        self.attrs.push(' ');
        self.attrs.push_str(key);
        self.attrs.push_str("=\"");
        self.attrs.push_str(&esc(value));
        self.attrs.push('"');
        self
    }

    /// The same element with attribute `key` when `value` is not empty.
    pub fn some(self, key: &str, value: impl AsRef<str>) -> El {
        if value.as_ref().is_empty() {
            self
        } else {
            self.attr(key, value)
        }
    }

    /// The same element with the boolean attribute `key` when `on`.
    pub fn flag(mut self, key: &str, on: bool) -> El {
        if on {
            self.attrs.push(' ');
            self.attrs.push_str(key);
        }
        self
    }

    /// The same element with `data-KEY` attributes (`KEY` in camel case becomes kebab case, as
    /// a script's `dataset` names it).
    pub fn data(mut self, pairs: &[(String, String)]) -> El {
        for (k, v) in pairs {
            let key: String = k
                .chars()
                .flat_map(|c| if c.is_ascii_uppercase() { vec!['-', c.to_ascii_lowercase()] } else { vec![c] })
                .collect();
            self = self.attr(&format!("data-{key}"), v);
        }
        self
    }

    /// The same element with `text` (escaped) added to its content.
    pub fn text(self, text: impl AsRef<str>) -> El {
        self.put_text(text.as_ref())
    }

    #[inline(never)]
    fn put_text(mut self, text: &str) -> El {
        self.body.push_str(&esc(text));
        self
    }

    /// The same element with `child` added to its content.
    #[inline(never)]
    pub fn kid(mut self, child: El) -> El {
        child.write_to(&mut self.body);
        self
    }

    /// Writes the element at the end of `out`.
    fn write_to(&self, out: &mut String) {
        out.push('<');
        out.push_str(self.tag);
        out.push_str(&self.attrs);
        out.push('>');
        if !VOID.contains(&self.tag) {
            out.push_str(&self.body);
            out.push_str("</");
            out.push_str(self.tag);
            out.push('>');
        }
    }

    /// The same element with each of `children` added to its content.
    pub fn kids(self, children: impl IntoIterator<Item = El>) -> El {
        children.into_iter().fold(self, El::kid)
    }

    /// The same element with `items` added, `sep` (text) between them.
    pub fn joined(mut self, items: impl IntoIterator<Item = El>, sep: &str) -> El {
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self = self.text(sep);
            }
            self = self.kid(item);
        }
        self
    }
}

impl fmt::Display for El {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write_to(&mut out);
        f.write_str(&out)
    }
}

/// A small button (`type=button`) showing `text`.
pub fn button(text: &str) -> El {
    El::new("button").attr("type", "button").attr("class", "small").text(text)
}

/// One cell of a table: spans, hover text, class, quantity and value, a swatch of its colour, its
/// text (or a button with it, `data-button` saying what the page acts on), aside and marks.
fn cell(c: &Cell, tag: &'static str) -> El {
    let mut td = El::new(tag);
    if c.rows > 1 {
        td = td.attr("rowspan", c.rows.to_string());
    }
    if c.cols > 1 {
        td = td.attr("colspan", c.cols.to_string());
    }
    td = td.some("title", &c.title).some("class", &c.class);
    if let Some(k) = &c.key {
        td = td.attr("data-key", k);
    }
    if let Some(v) = &c.value {
        td = td.attr("data-value", v);
    }
    if let Some(i) = c.colour {
        let (r, g, b) = super::chart::palette(i);
        let swatch = El::new("span").attr("class", "swatch").attr("title", "its colour in the charts");
        // Painted by the page from `data-colour`: its policy forbids style attributes in HTML.
        td = td.kid(swatch.attr("data-colour", format!("rgb({r}, {g}, {b})"))).text(" ");
    }
    td = if c.button.is_empty() { td.text(&c.text) } else { td.kid(button(&c.text).attr("data-button", &c.button)) };
    if !c.aside.is_empty() {
        td = td.kid(El::new("span").attr("class", "chg").text(format!(" {}", c.aside)));
    }
    for g in &c.tags {
        td = td.text(" ").kid(El::new("span").attr("class", g.class).attr("title", &g.title).text(&g.text));
    }
    td
}

/// The inside of a table's element: its head and body.
pub fn table_body(t: &Table) -> String {
    let head = El::new("thead").kids(t.head.iter().map(|row| El::new("tr").kids(row.iter().map(|c| cell(c, "th")))));
    let body = El::new("tbody").kids(
        t.rows
            .iter()
            .map(|r| El::new("tr").some("class", &r.class).data(&r.data).kids(r.cells.iter().map(|c| cell(c, "td")))),
    );
    format!("{head}{body}")
}

/// A whole table element: its id, class and data, head and body.
pub fn table(t: &Table) -> String {
    format!(
        "<table{}{}{}>{}</table>",
        attr_of("id", &t.id),
        attr_of("class", &t.class),
        data_of(&t.data),
        table_body(t)
    )
}

fn attr_of(key: &str, v: &str) -> String {
    if v.is_empty() {
        String::new()
    } else {
        format!(" {key}=\"{}\"", esc(v))
    }
}

fn data_of(pairs: &[(String, String)]) -> String {
    let el = El::new("i").data(pairs);
    el.attrs
}

/// A chart's numbers ([`super::chart::Table`]) as the table under it: a caption, a heading per
/// column and a row per row of cells.
pub fn numbers(t: &super::chart::Table) -> String {
    let head = El::new("thead").kid(El::new("tr").kids(t.columns.iter().map(|c| El::new("th").text(c))));
    let rows = t.rows.iter().map(|r| El::new("tr").kids(r.iter().map(|v| El::new("td").text(v))));
    let table = El::new("table").attr("class", "numbers").kid(El::new("caption").text(&t.title));
    table.kid(head).kid(El::new("tbody").kids(rows)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::table::{Row, Table};

    #[test]
    fn text_and_attributes_are_escaped() {
        let el = El::new("b").attr("title", "a \"q\" & <x>").text("<script>alert('x')</script>");
        assert_eq!(
            el.to_string(),
            "<b title=\"a &quot;q&quot; &amp; &lt;x&gt;\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</b>"
        );
        assert_eq!(
            El::new("input").attr("value", "1").flag("checked", true).to_string(),
            "<input value=\"1\" checked>"
        );
    }

    #[test]
    fn a_table_keeps_spans_values_buttons_and_data() {
        let t = Table {
            id: "t".into(),
            class: "numbers".into(),
            head: vec![vec![Cell::text("policy").span(2, 1), Cell::text("wait").title("mean wait")]],
            rows: vec![Row {
                cells: vec![
                    Cell { button: "easy".into(), ..Cell::text("easy").colour(1) },
                    Cell::number("85 min", "avg_wait_s", Some(5100.0)).aside("+3%"),
                ],
                class: "total".into(),
                data: vec![("policy".into(), "easy".into()), ("jobLimit".into(), "5".into())],
            }],
            data: vec![("view".into(), "all".into())],
        };
        let html = table(&t);
        assert!(html.starts_with(
            "<table id=\"t\" class=\"numbers\" data-view=\"all\"><thead><tr><th rowspan=\"2\">policy</th>"
        ));
        assert!(html.contains("<th title=\"mean wait\">wait</th>"));
        assert!(html.contains("<tr class=\"total\" data-policy=\"easy\" data-job-limit=\"5\">"));
        assert!(html.contains("<button type=\"button\" class=\"small\" data-button=\"easy\">easy</button>"));
        assert!(
            html.contains("<td data-key=\"avg_wait_s\" data-value=\"5100\">85 min<span class=\"chg\"> +3%</span></td>")
        );
        assert!(html.contains("class=\"swatch\""));
    }
}

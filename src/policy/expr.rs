//! Priority expressions: the queue order of a policy written in one line (`custom`).
//!
//! A small language over one job and the moment: numbers, the variables of [`Var`], the
//! operators `+ - * / ^` (power, right-associative), comparisons `< <= > >= == !=` (1 or 0),
//! `&&`, `||`, `!`, and the functions of [`FUNCTIONS`], `if(c, a, b)` among them. No loops, no
//! names of its own, no I/O: an expression always ends, in time linear in its length.
//!
//! [`Expr::parse`] reads the text once and compiles it to postfix code over a small stack
//! ([`Expr::eval`]), so a comparison in the queue costs a few dozen instructions. Every error
//! names its column (1-based, in characters). Values may be infinite (`log(0)` is -inf, and
//! orders below every number), but a division by zero, or a function given a value outside its
//! domain (`sqrt(-1)`, `log(-1)`), gives no number (NaN), which every operator passes on;
//! [`Expr::eval_checked`] then says which operator made it and where.

use std::fmt;

/// A variable an expression may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// Seconds the job has waited so far (now - submit).
    Wait,
    /// The user's runtime estimate, seconds.
    Estimate,
    /// The scheduler's planned runtime (the estimate, or the prediction with a predictor), seconds.
    Prediction,
    /// Processors the job asks for.
    Procs,
    /// Submission time, seconds from the trace's origin.
    Submit,
    /// The time of the pass, seconds.
    Now,
    /// The job's user's decayed usage, processor-seconds (halved every `usage_half_life_h`).
    UserUsage,
    /// The job's group's decayed usage, processor-seconds.
    GroupUsage,
    /// The job's queue number in the trace (SWF field 15).
    Queue,
    /// Jobs waiting in the queue at the pass.
    Waiting,
    /// Free processors at the pass.
    Free,
    /// The machine's processors.
    Machine,
}

/// The variables by name, in the order the help lists them.
pub const VARIABLES: &[(&str, Var, &str)] = &[
    ("wait", Var::Wait, "seconds waited so far (now - submit)"),
    ("estimate", Var::Estimate, "the user's runtime estimate, seconds"),
    ("prediction", Var::Prediction, "the planned runtime (the estimate, or the predictor's), seconds"),
    ("procs", Var::Procs, "processors requested"),
    ("submit", Var::Submit, "submission time, seconds"),
    ("now", Var::Now, "time of the scheduling pass, seconds"),
    ("user_usage", Var::UserUsage, "the user's decayed usage, processor-seconds"),
    ("group_usage", Var::GroupUsage, "the group's decayed usage, processor-seconds"),
    ("queue", Var::Queue, "the job's queue number in the trace"),
    ("waiting", Var::Waiting, "jobs waiting at the pass"),
    ("free", Var::Free, "free processors at the pass"),
    ("machine", Var::Machine, "the machine's processors"),
];

/// How many variables there are: the length of the slice [`Expr::eval`] reads.
pub const VAR_COUNT: usize = 12;

/// The functions by name with their argument counts (`None`: two or more).
pub const FUNCTIONS: &[(&str, Option<usize>)] = &[
    ("log", Some(1)),
    ("ln", Some(1)),
    ("log2", Some(1)),
    ("log10", Some(1)),
    ("sqrt", Some(1)),
    ("exp", Some(1)),
    ("abs", Some(1)),
    ("floor", Some(1)),
    ("ceil", Some(1)),
    ("pow", Some(2)),
    ("min", None),
    ("max", None),
    ("if", Some(3)),
];

/// What is wrong in an expression, or went wrong running it, and at which column (1-based, in
/// characters): a parse error, or the operator that made no number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    /// Column of the offending token.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ExprError {}

/// One instruction of the compiled code.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Num(f64),
    Var(Var),
    Neg,
    Not,
    Add,
    Sub,
    Mul,
    /// Division, with the operator's column for a division by zero.
    Div(usize),
    Pow(usize),
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    /// A function of one argument, with its column.
    Call1(Fn1, usize),
    Min(usize),
    Max(usize),
    If,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fn1 {
    Ln,
    Log2,
    Log10,
    Sqrt,
    Exp,
    Abs,
    Floor,
    Ceil,
}

impl Fn1 {
    fn name(self) -> &'static str {
        match self {
            Fn1::Ln => "log",
            Fn1::Log2 => "log2",
            Fn1::Log10 => "log10",
            Fn1::Sqrt => "sqrt",
            Fn1::Exp => "exp",
            Fn1::Abs => "abs",
            Fn1::Floor => "floor",
            Fn1::Ceil => "ceil",
        }
    }

    fn apply(self, x: f64) -> f64 {
        match self {
            Fn1::Ln => x.ln(),
            Fn1::Log2 => x.log2(),
            Fn1::Log10 => x.log10(),
            Fn1::Sqrt => x.sqrt(),
            Fn1::Exp => x.exp(),
            Fn1::Abs => x.abs(),
            Fn1::Floor => x.floor(),
            Fn1::Ceil => x.ceil(),
        }
    }
}

/// A compiled priority expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    text: String,
    code: Vec<Op>,
    /// Column of each instruction's operator or function (0 for operands).
    cols: Vec<usize>,
    /// Deepest the stack gets.
    depth: usize,
    /// Which variables the code reads, by [`Var`] index.
    reads: [bool; VAR_COUNT],
}

impl Expr {
    /// Parses and compiles `text`.
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        let tokens = lex(text)?;
        let mut p = Parser { tokens: &tokens, at: 0, code: Vec::new(), end: text.chars().count() + 1, nesting: 0 };
        p.expr(0)?;
        if let Some(t) = p.tokens.get(p.at) {
            return Err(ExprError { column: t.column, message: format!("unexpected {}", t.kind.describe()) });
        }
        let (code, cols): (Vec<Op>, Vec<usize>) = p.code.into_iter().unzip();
        let mut reads = [false; VAR_COUNT];
        let (mut depth, mut max) = (0usize, 0usize);
        for op in &code {
            if let Op::Var(v) = op {
                reads[*v as usize] = true;
            }
            depth = depth + 1 - op.pops();
            max = max.max(depth);
        }
        Ok(Expr { text: text.trim().to_string(), code, cols, depth: max, reads })
    }

    /// The expression as written (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the code reads `v`.
    pub fn reads(&self, v: Var) -> bool {
        self.reads[v as usize]
    }

    /// Whether the value can change while a job waits: it reads the time, the queue, the
    /// machine's state or decayed usage (not only the job's own fields).
    pub fn is_dynamic(&self) -> bool {
        [Var::Wait, Var::Now, Var::UserUsage, Var::GroupUsage, Var::Waiting, Var::Free].iter().any(|&v| self.reads(v))
    }

    /// The value for the variables `vars` (indexed by [`Var`]), with `stack` as scratch space.
    #[inline]
    pub fn eval(&self, vars: &[f64; VAR_COUNT], stack: &mut Vec<f64>) -> f64 {
        self.run::<false>(vars, stack).unwrap_or(f64::NAN)
    }

    /// [`Expr::eval`], or where the value first became no number (NaN) from numbers.
    pub fn eval_checked(&self, vars: &[f64; VAR_COUNT], stack: &mut Vec<f64>) -> Result<f64, ExprError> {
        self.run::<true>(vars, stack)
    }

    /// The code run over `stack`; with `CHECK`, stopped at the first instruction that makes no
    /// number of numbers (without, a run carries none of the checks).
    #[inline]
    fn run<const CHECK: bool>(&self, vars: &[f64; VAR_COUNT], stack: &mut Vec<f64>) -> Result<f64, ExprError> {
        stack.clear();
        stack.reserve(self.depth);
        for (i, op) in self.code.iter().enumerate() {
            let v = match *op {
                Op::Num(x) => x,
                Op::Var(v) => vars[v as usize],
                Op::Neg => -pop(stack),
                Op::Not => not(pop(stack)),
                Op::Call1(f, _) => {
                    let x = pop(stack);
                    let y = f.apply(x);
                    if CHECK && y.is_nan() && !x.is_nan() {
                        let message = format!("{}({}) is not a number", f.name(), show(x));
                        return Err(ExprError { column: self.cols[i], message });
                    }
                    y
                }
                Op::If => {
                    let b = pop(stack);
                    let a = pop(stack);
                    choose(pop(stack), a, b)
                }
                op => {
                    let b = pop(stack);
                    let a = pop(stack);
                    let y = binary(op, a, b);
                    if CHECK && y.is_nan() && !a.is_nan() && !b.is_nan() {
                        let message = match op {
                            Op::Div(_) if b == 0.0 => format!("division by zero ({} / 0)", show(a)),
                            _ => format!("{} {} {} is not a number", show(a), op.symbol(), show(b)),
                        };
                        return Err(ExprError { column: self.cols[i], message });
                    }
                    y
                }
            };
            stack.push(v);
        }
        Ok(pop(stack))
    }
}

/// `!x`: 1 for 0, else 0; no number stays none.
fn not(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else {
        f64::from(x == 0.0)
    }
}

/// `if(c, a, b)`; a condition that is no number gives none.
fn choose(c: f64, a: f64, b: f64) -> f64 {
    if c.is_nan() {
        c
    } else if c != 0.0 {
        a
    } else {
        b
    }
}

fn show(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[inline]
fn pop(stack: &mut Vec<f64>) -> f64 {
    // The compiler checked every operator's operands: the stack is never short.
    stack.pop().unwrap_or(f64::NAN)
}

/// A binary operator's value. No number in gives none out (comparisons and `min` included),
/// so a fault always reaches the priority; a division by zero gives none.
#[inline]
fn binary(op: Op, a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Mul => a * b,
        Op::Div(_) if b == 0.0 => f64::NAN,
        Op::Div(_) => a / b,
        Op::Pow(_) => a.powf(b),
        Op::Lt => f64::from(a < b),
        Op::Le => f64::from(a <= b),
        Op::Gt => f64::from(a > b),
        Op::Ge => f64::from(a >= b),
        Op::Eq => f64::from(a == b),
        Op::Ne => f64::from(a != b),
        Op::And => f64::from(a != 0.0 && b != 0.0),
        Op::Or => f64::from(a != 0.0 || b != 0.0),
        Op::Min(_) => a.min(b),
        Op::Max(_) => a.max(b),
        _ => f64::NAN,
    }
}

impl Op {
    /// Values the instruction takes off the stack (it always pushes one).
    fn pops(self) -> usize {
        match self {
            Op::Num(_) | Op::Var(_) => 0,
            Op::Neg | Op::Not | Op::Call1(..) => 1,
            Op::If => 3,
            _ => 2,
        }
    }

    /// How a binary instruction is written, for messages.
    fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div(_) => "/",
            Op::Pow(_) => "^",
            Op::Min(_) => "min",
            Op::Max(_) => "max",
            _ => "?",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Num(f64),
    Name(String),
    Sym(&'static str),
}

impl Kind {
    fn describe(&self) -> String {
        match self {
            Kind::Num(x) => format!("number {}", show(*x)),
            Kind::Name(n) => format!("name \"{n}\""),
            Kind::Sym(s) => format!("\"{s}\""),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Token {
    kind: Kind,
    column: usize,
}

const SYMBOLS: &[&str] =
    &["<=", ">=", "==", "!=", "&&", "||", "**", "+", "-", "*", "/", "^", "(", ")", ",", "<", ">", "!"];

fn lex(text: &str) -> Result<Vec<Token>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            // An exponent: 1e6, 2.5E-3.
            if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                let mut j = i + 1;
                if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
                    j += 1;
                }
                if j < chars.len() && chars[j].is_ascii_digit() {
                    i = j;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let s: String = chars[start..i].iter().collect();
            let x: f64 = s.parse().map_err(|_| ExprError { column, message: format!("\"{s}\" is not a number") })?;
            out.push(Token { kind: Kind::Num(x), column });
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                kind: Kind::Name(chars[start..i].iter().collect::<String>().to_ascii_lowercase()),
                column,
            });
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(*s)) else {
                return Err(ExprError { column, message: format!("unexpected character \"{c}\"") });
            };
            i += sym.chars().count();
            // `**` is another spelling of `^`.
            out.push(Token { kind: Kind::Sym(if *sym == "**" { "^" } else { sym }), column });
        }
    }
    Ok(out)
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    /// Instructions with their columns.
    code: Vec<(Op, usize)>,
    /// The column just past the text, for errors at its end.
    end: usize,
    /// Subexpressions open now: parsing recurses into each, so a hostile text of thousands of
    /// parentheses would overflow the stack (and crash the page) without a bound.
    nesting: usize,
}

/// The deepest nesting of subexpressions an expression may have.
pub const MAX_NESTING: usize = 200;

/// Binary operators: (symbol, left binding power, right binding power).
const BINARY: &[(&str, u8, u8)] = &[
    ("||", 1, 2),
    ("&&", 3, 4),
    ("==", 5, 6),
    ("!=", 5, 6),
    ("<", 7, 8),
    ("<=", 7, 8),
    (">", 7, 8),
    (">=", 7, 8),
    ("+", 9, 10),
    ("-", 9, 10),
    ("*", 11, 12),
    ("/", 11, 12),
    // Right-associative, and above unary minus: -2^2 = -4.
    ("^", 16, 15),
];

/// Binding power of unary `-` and `!`.
const UNARY: u8 = 13;

impl Parser<'_> {
    fn push(&mut self, column: usize, op: Op) {
        self.code.push((op, column));
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn column(&self) -> usize {
        self.peek().map_or(self.end, |t| t.column)
    }

    fn expect(&mut self, sym: &str) -> Result<(), ExprError> {
        match self.peek() {
            Some(Token { kind: Kind::Sym(s), .. }) if *s == sym => {
                self.at += 1;
                Ok(())
            }
            Some(t) => {
                Err(ExprError { column: t.column, message: format!("expected \"{sym}\", found {}", t.kind.describe()) })
            }
            None => Err(ExprError { column: self.end, message: format!("expected \"{sym}\" at the end") }),
        }
    }

    /// An expression whose operators bind at least as tightly as `min`.
    fn expr(&mut self, min: u8) -> Result<(), ExprError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            let message = format!("nested more than {MAX_NESTING} levels deep");
            return Err(ExprError { column: self.column(), message });
        }
        let parsed = self.expr_within(min);
        self.nesting -= 1;
        parsed
    }

    fn expr_within(&mut self, min: u8) -> Result<(), ExprError> {
        self.operand()?;
        while let Some(Token { kind: Kind::Sym(sym), column }) = self.peek().cloned() {
            let Some(&(_, left, right)) = BINARY.iter().find(|b| b.0 == sym) else { break };
            if left < min {
                break;
            }
            self.at += 1;
            self.expr(right)?;
            self.push(
                column,
                match sym {
                    "||" => Op::Or,
                    "&&" => Op::And,
                    "==" => Op::Eq,
                    "!=" => Op::Ne,
                    "<" => Op::Lt,
                    "<=" => Op::Le,
                    ">" => Op::Gt,
                    ">=" => Op::Ge,
                    "+" => Op::Add,
                    "-" => Op::Sub,
                    "*" => Op::Mul,
                    "/" => Op::Div(column),
                    _ => Op::Pow(column),
                },
            );
        }
        Ok(())
    }

    fn operand(&mut self) -> Result<(), ExprError> {
        let column = self.column();
        let Some(t) = self.peek().cloned() else {
            return Err(ExprError { column, message: "expected a number, a name or \"(\" at the end".into() });
        };
        self.at += 1;
        match t.kind {
            Kind::Num(x) => self.push(column, Op::Num(x)),
            Kind::Sym("(") => {
                self.expr(0)?;
                self.expect(")")?;
            }
            Kind::Sym("-") => {
                self.expr(UNARY)?;
                self.push(column, Op::Neg);
            }
            Kind::Sym("+") => self.expr(UNARY)?,
            Kind::Sym("!") => {
                self.expr(UNARY)?;
                self.push(column, Op::Not);
            }
            Kind::Sym(s) => {
                return Err(ExprError { column, message: format!("expected a number, a name or \"(\", found \"{s}\"") })
            }
            Kind::Name(name) => {
                if matches!(self.peek(), Some(Token { kind: Kind::Sym("("), .. })) {
                    return self.call(&name, column);
                }
                if let Some(&(_, v, _)) = VARIABLES.iter().find(|x| x.0 == name) {
                    self.push(column, Op::Var(v));
                } else if let Some(x) = constant(&name) {
                    self.push(column, Op::Num(x));
                } else {
                    let what = if FUNCTIONS.iter().any(|f| f.0 == name) {
                        format!("{name} is a function: write {name}(...)")
                    } else {
                        let names: Vec<&str> = VARIABLES.iter().map(|v| v.0).collect();
                        format!("unknown name \"{name}\"; the variables are {}", names.join(", "))
                    };
                    return Err(ExprError { column, message: what });
                }
            }
        }
        Ok(())
    }

    fn call(&mut self, name: &str, column: usize) -> Result<(), ExprError> {
        let Some(&(_, arity)) = FUNCTIONS.iter().find(|f| f.0 == name) else {
            let names: Vec<&str> = FUNCTIONS.iter().map(|f| f.0).collect();
            return Err(ExprError {
                column,
                message: format!("unknown function \"{name}\"; the functions are {}", names.join(", ")),
            });
        };
        self.expect("(")?;
        let mut n = 0;
        loop {
            if n > 0 && matches!(self.peek(), Some(Token { kind: Kind::Sym(")"), .. })) {
                break;
            }
            if n == 0 && matches!(self.peek(), Some(Token { kind: Kind::Sym(")"), .. })) {
                break;
            }
            self.expr(0)?;
            n += 1;
            if matches!(self.peek(), Some(Token { kind: Kind::Sym(","), .. })) {
                self.at += 1;
                continue;
            }
            break;
        }
        self.expect(")")?;
        let ok = match arity {
            Some(k) => n == k,
            None => n >= 2,
        };
        if !ok {
            let want = arity.map_or("two or more".to_string(), |k| k.to_string());
            return Err(ExprError { column, message: format!("{name} takes {want} arguments, not {n}") });
        }
        match name {
            "pow" => self.push(column, Op::Pow(column)),
            "min" => (1..n).for_each(|_| self.push(column, Op::Min(column))),
            "max" => (1..n).for_each(|_| self.push(column, Op::Max(column))),
            "if" => self.push(column, Op::If),
            _ => {
                let f = match name {
                    "log" | "ln" => Fn1::Ln,
                    "log2" => Fn1::Log2,
                    "log10" => Fn1::Log10,
                    "sqrt" => Fn1::Sqrt,
                    "exp" => Fn1::Exp,
                    "abs" => Fn1::Abs,
                    "floor" => Fn1::Floor,
                    _ => Fn1::Ceil,
                };
                self.push(column, Op::Call1(f, column));
            }
        }
        Ok(())
    }
}

/// Named constants.
fn constant(name: &str) -> Option<f64> {
    match name {
        "pi" => Some(std::f64::consts::PI),
        "e" => Some(std::f64::consts::E),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(Var, f64)]) -> [f64; VAR_COUNT] {
        let mut v = [0.0; VAR_COUNT];
        for &(k, x) in pairs {
            v[k as usize] = x;
        }
        v
    }

    fn value(text: &str, pairs: &[(Var, f64)]) -> f64 {
        Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}")).eval(&vars(pairs), &mut Vec::new())
    }

    #[test]
    fn arithmetic_follows_the_usual_precedence() {
        assert_eq!(value("1 + 2 * 3", &[]), 7.0);
        assert_eq!(value("(1 + 2) * 3", &[]), 9.0);
        assert_eq!(value("2 ^ 3 ^ 2", &[]), 512.0);
        assert_eq!(value("-2 ^ 2", &[]), -4.0);
        assert_eq!(value("2 ** 10", &[]), 1024.0);
        assert_eq!(value("10 - 4 - 3", &[]), 3.0);
        assert_eq!(value("8 / 4 / 2", &[]), 1.0);
        assert_eq!(value("1 < 2 && 3 >= 3 || 0", &[]), 1.0);
        assert_eq!(value("!(1 == 1)", &[]), 0.0);
        assert_eq!(value("1.5e3 + .5", &[]), 1500.5);
    }

    #[test]
    fn variables_and_functions() {
        let v = [(Var::Wait, 100.0), (Var::Estimate, 50.0), (Var::Procs, 4.0), (Var::Submit, 1000.0)];
        assert_eq!(value("(wait / estimate)^3 * procs", &v), 32.0);
        assert_eq!(value("-(log10(estimate) * procs + 870 * log10(submit))", &v), -(50f64.log10() * 4.0 + 870.0 * 3.0));
        assert_eq!(value("max(wait, estimate, procs)", &v), 100.0);
        assert_eq!(value("min(wait, estimate, procs)", &v), 4.0);
        assert_eq!(value("if(procs > 2, 1, 2)", &v), 1.0);
        assert_eq!(value("pow(2, 5) + sqrt(16) + abs(-1) + log2(8) + log(e)", &v), 32.0 + 4.0 + 1.0 + 3.0 + 1.0);
        assert_eq!(value("WAIT", &v), 100.0);
    }

    #[test]
    fn dynamic_expressions_are_told_apart() {
        assert!(!Expr::parse("-submit").unwrap().is_dynamic());
        assert!(!Expr::parse("-estimate * procs").unwrap().is_dynamic());
        assert!(Expr::parse("wait / estimate").unwrap().is_dynamic());
        assert!(Expr::parse("-user_usage").unwrap().is_dynamic());
    }

    #[test]
    fn errors_name_their_column() {
        let err = |t: &str| Expr::parse(t).unwrap_err().to_string();
        assert!(err("wait / estmate").starts_with("column 8: unknown name \"estmate\"; the variables are wait, "));
        assert_eq!(err("wait +"), "column 7: expected a number, a name or \"(\" at the end");
        assert_eq!(err("(wait"), "column 6: expected \")\" at the end");
        assert_eq!(err("wait ) 2"), "column 6: unexpected \")\"");
        assert_eq!(err("wait $ 2"), "column 6: unexpected character \"$\"");
        assert_eq!(err("sqrt(1, 2)"), "column 1: sqrt takes 1 arguments, not 2");
        assert_eq!(err("max(1)"), "column 1: max takes two or more arguments, not 1");
        assert!(err("foo(1)").starts_with("column 1: unknown function \"foo\"; the functions are log, "));
        assert_eq!(err("1 + log"), "column 5: log is a function: write log(...)");
        assert_eq!(err("wait procs"), "column 6: unexpected name \"procs\"");
        assert_eq!(err(""), "column 1: expected a number, a name or \"(\" at the end");
        // Hostile nesting is refused, not a stack overflow: parentheses, unary signs, powers.
        let deep = |open: &str, close: &str| format!("{}1{}", open.repeat(100_000), close.repeat(100_000));
        assert_eq!(err(&deep("(", ")")), "column 201: nested more than 200 levels deep");
        assert!(err(&deep("-", "")).ends_with("nested more than 200 levels deep"));
        assert!(err(&format!("2{}", "^2".repeat(100_000))).ends_with("nested more than 200 levels deep"));
        assert!(err(&deep("max(1, ", ")")).ends_with("nested more than 200 levels deep"));
        assert_eq!(Expr::parse(&deep_ok()).map(|e| e.eval(&[0.0; VAR_COUNT], &mut Vec::new())), Ok(1.0));
        // A long flat expression is fine.
        assert_eq!(
            Expr::parse(&format!("0{}", " + 1".repeat(100_000))).map(|e| e.eval(&[0.0; VAR_COUNT], &mut Vec::new())),
            Ok(100_000.0)
        );
    }

    /// 150 levels of parentheses: within the bound.
    fn deep_ok() -> String {
        format!("{}1{}", "(".repeat(150), ")".repeat(150))
    }

    #[test]
    fn faults_at_run_time_name_the_operator() {
        let e = Expr::parse("procs + 1 / wait").unwrap();
        let f = e.eval_checked(&vars(&[(Var::Procs, 2.0)]), &mut Vec::new()).unwrap_err();
        assert_eq!(f.to_string(), "column 11: division by zero (1 / 0)");
        assert_eq!(e.eval_checked(&vars(&[(Var::Wait, 4.0)]), &mut Vec::new()), Ok(0.25));
        let e = Expr::parse("2 * log(wait - 10)").unwrap();
        let f = e.eval_checked(&vars(&[(Var::Wait, 5.0)]), &mut Vec::new()).unwrap_err();
        assert_eq!(f.to_string(), "column 5: log(-5) is not a number");
        let e = Expr::parse("wait ^ 0.5").unwrap();
        let f = e.eval_checked(&vars(&[(Var::Wait, -4.0)]), &mut Vec::new()).unwrap_err();
        assert_eq!(f.to_string(), "column 6: -4 ^ 0.5 is not a number");
        // A fault reaches the value through comparisons, if and min.
        let e = Expr::parse("min(if(1 / wait > 0, 1, 2), 3)").unwrap();
        assert!(e.eval(&vars(&[]), &mut Vec::new()).is_nan());
        assert_eq!(e.eval_checked(&vars(&[]), &mut Vec::new()).unwrap_err().column, 10);
        // Infinities are values: log(0) orders below every number.
        let e = Expr::parse("-(log10(estimate) * procs + 870 * log10(submit))").unwrap();
        let v = vars(&[(Var::Estimate, 100.0), (Var::Procs, 2.0), (Var::Submit, 0.0)]);
        assert_eq!(e.eval_checked(&v, &mut Vec::new()), Ok(f64::INFINITY));
    }
}

//! placeholder
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OthelloBoard;
pub struct OthelloMove;
pub struct OthelloSquare;
impl OthelloBoard {
    pub fn new() -> Self {
        OthelloBoard
    }
    pub fn display_string(&self) -> String {
        " *".into()
    }
    pub fn turn(&self) -> super::Side {
        super::Side::Black
    }
}

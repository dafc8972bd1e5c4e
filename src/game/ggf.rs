pub struct GgfGame;
pub struct GgfMove;

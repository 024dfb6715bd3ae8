//! shicho: a Go engine speaking GTP v2.

//! The Go Text Protocol, version 2.
//!
//! `parse` turns raw input lines into command lines and GTP entities; it knows nothing about
//! what the commands mean.

pub mod parse;

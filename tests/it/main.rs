//! The integration tests, one module per area, linked into one binary (one link of the
//! library instead of one per file). Helpers shared by the modules: `common`,
//! `probe_support`, `replay_support`.

mod common;
mod probe_support;
mod replay_support;

mod bounded_inputs;
mod c2w_engines;
mod c2w_suggest;
mod check_corpus;
mod check_scaling;
mod check_scenarios;
mod check_smoke;
mod cli_flags;
mod decode_corpus;
mod decode_fixture_logs;
mod decode_json;
mod decode_real;
mod decode_recordings;
mod dump;
mod fold_repeats;
mod fuzz_inputs;
mod hostile_engines;
mod hostile_set;
mod import_cli;
mod import_corpus;
mod import_equivalence;
mod import_guard;
mod one_judge;
mod probe_c2w;
mod probe_engines;
mod probe_faults;
mod real_gui_xboard;
mod real_sessions;
mod real_world_logs;
mod real_world_small;
mod record_faulty_uci;
mod record_gnuchess;
mod record_lifecycle;
mod record_nboard;
mod record_real_engines;
mod record_transparency;
mod reliability;
mod replay_as_engine;
mod replay_deterministic;
mod replay_subsets;
mod replay_sync;
mod rules_c2w;
mod rules_cecp_nboard_x;
mod rules_uci;
mod untrusted_output;
mod variants_vs_fairy_stockfish;
mod view_app;
mod view_cli;
mod view_follow;
mod view_tmux;

//! `bot`: the command line. All the work is in the `dustbot` library.

fn main() -> std::process::ExitCode {
    dustbot::cli::main()
}

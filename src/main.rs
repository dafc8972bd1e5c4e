fn main() {
    std::process::exit(kibitzer::cli::main());
}

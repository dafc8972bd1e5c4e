# Sourced by the fastchess scripts: builds fastchess in $src (make) and kibitzer in release
# mode under $root, and sets $fastchess and $kibitzer to the two binaries.
echo "building fastchess in $src ..." >&2
make -C "$src" -j"$(nproc)" >&2
fastchess=$src/fastchess
[ -x "$fastchess" ] || fastchess=$(find "$src" -maxdepth 2 -type f -name fastchess -perm -u+x | head -n1)
[ -x "$fastchess" ] || { echo "$0: no fastchess binary after make" >&2; exit 2; }
echo "building kibitzer (release) ..." >&2
(cd "$root" && cargo build --release --quiet)
kibitzer=${CARGO_TARGET_DIR:-$root/target}/release/kibitzer

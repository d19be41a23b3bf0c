# Sourced by scripts/test.sh, scripts/test-old-x86.sh and .ci/run: what
# their cargo runs share, so that every `cargo test` after scripts/test.sh's
# builds nothing new.

# The features every test run builds with.
test_features=(--features serde)

# Cargo's target directory: CARGO_TARGET_DIR, or the workspace's target/.
target_dir() {
    cargo metadata --format-version 1 --no-deps |
        "${PYTHON:-python3}" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])'
}

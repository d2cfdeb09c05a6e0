import Support

/// A file holding a secret key (`--key`, `--service-account`), read as one: a regular file only
/// its owner can read, no larger than any key, read whole.
enum KeyFile {
    /// The bytes of `option`'s file; `what` names the file in each refusal ("a readable .p8 key
    /// file"), `size` says how large a real one is ("a few hundred bytes").
    static func read(_ option: Option<String>, _ arguments: ParsedArguments, what: String, size: String, limit: Int) throws
        -> [UInt8]
    {
        let path = try arguments.required(option)
        guard FileSystem.kind(path) == .regularFile, let exposed = FileSystem.readableByOthers(path) else {
            throw arguments.invalid(option, expected: "a readable " + what)
        }
        guard !exposed else {
            throw arguments.invalid(
                option, expected: "a key only you can read: group or others can read it now; run chmod 600 \(path)")
        }
        // The size first: nothing larger than a key is read.
        if let bytes = FileSystem.fileSize(path), bytes > limit {
            throw arguments.invalid(
                option,
                expected: "the \(what) (\(size)): \(path) is \(HumanText.count(bytes)) bytes, more than any key "
                    + "(\(HumanText.count(limit)) at most)")
        }
        guard let bytes = try? FileDescriptor.openForReading(path).readAll(limit: limit), bytes.count <= limit else {
            throw arguments.invalid(option, expected: "a readable " + what)
        }
        return bytes
    }
}

import AppStoreAPI
import Support

/// One fetch's answers, a line each, put together beside the data and renamed into
/// `data/folder/name` when the last is in: a fetch that stops leaves nothing there.
struct AnswerFile {
    let destination: String
    private let temporary: String
    private let file: FileDescriptor
    private(set) var lines = 0

    /// Makes `folder` and the scratch folder (neither may be a link) and starts the file.
    init(data: String, folder: String, name: String) throws {
        destination = data + "/" + folder + "/" + name
        let scratch = try FetchFolders.make(FetchCalls.scratchName, in: data)
        _ = try FetchFolders.make(folder, in: data)
        temporary = scratch + "/" + name + ".partial"
        file = try FileDescriptor.create(temporary)
    }

    /// `body` as one line (a line feed in JSON can only be white space between its tokens),
    /// unless it holds a secret of `api`'s run.
    mutating func append(_ body: [UInt8], from api: any ListingAPI) throws {
        guard !api.holdsSecret(body) else {
            throw FetchError(message: "\(api.owner)'s answer holds this run's credentials, which it never sends back: not kept")
        }
        var line = body
        for index in line.indices where line[index] == 0x0A || line[index] == 0x0D { line[index] = 0x20 }
        try (line + [0x0A]).withUnsafeBytes { try file.write($0) }
        lines += 1
    }

    /// Renames the file into place and returns its path; with no line, removes it and returns nil.
    func commit() throws -> String? {
        guard lines > 0 else {
            FileSystem.remove(temporary)
            return nil
        }
        try file.synchronize()
        try FileSystem.rename(temporary, to: destination)
        return destination
    }

    /// Runs `body` writing into the file; a failure removes it, and a fetch error says nothing was written.
    static func whole<T>(data: String, folder: String, name: String, _ body: (inout AnswerFile) throws -> T) throws -> T {
        var file = try AnswerFile(data: data, folder: folder, name: name)
        do {
            return try body(&file)
        } catch {
            FileSystem.remove(file.temporary)
            if var failure = error as? FetchError {
                failure.message += "; nothing was written to \(file.destination)"
                throw failure
            }
            throw error
        }
    }
}

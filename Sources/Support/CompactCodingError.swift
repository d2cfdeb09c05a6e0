package enum CompactCodingError: Error, Equatable, CustomStringConvertible {
    case truncated
    case trailingBytes
    case invalid(String)

    package var description: String {
        switch self {
        case .truncated: "the data ends early"
        case .trailingBytes: "bytes follow the data"
        case .invalid(let what): what
        }
    }
}

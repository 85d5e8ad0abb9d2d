/// One entry of an error envelope's `errors` list: which field (if any) and what is wrong.
public struct FieldError: Sendable, Hashable, Codable {
    /// The offending field, when the server names one.
    public var field: String?
    /// The human-readable message.
    public var message: String

    /// Creates a field error.
    public init(field: String? = nil, message: String) {
        self.field = field
        self.message = message
    }
}

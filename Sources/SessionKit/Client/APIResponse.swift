import HTTPCore

/// A successful answer: the status and the decoded body (`nil` when empty or not JSON).
public struct APIResponse: Sendable, Hashable {
    /// The 2xx status.
    public var status: HTTPStatus
    /// The decoded body.
    public var body: JSONValue?

    /// Creates a response.
    public init(status: HTTPStatus, body: JSONValue?) {
        self.status = status
        self.body = body
    }

    /// The success envelope's `data` member.
    public var data: JSONValue? { body?["data"] }
}

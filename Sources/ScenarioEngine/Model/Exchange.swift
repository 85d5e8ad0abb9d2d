import Foundation
import HTTPCore

/// One scripted answer of the backend: which requests it serves, and how.
package struct Exchange: Sendable {
    /// The id requests and reports refer to (`exchange-N` when the file names none).
    package var id: String
    /// Which requests this exchange serves.
    package var request: RequestMatcher
    /// What it answers.
    package var reply: Reply
    /// How many requests it serves; `nil` means any number.
    package var times: Int?
    /// Exchanges that must have served at least once before this one is eligible.
    package var after: [String]
    /// Virtual time between the request and the reply.
    package var latency: Duration
    /// Holds replies until a condition holds.
    package var release: ReleaseCondition?
    /// Whether leaving this exchange unused is fine.
    package var optional: Bool
    /// Where it is declared.
    package var location: ScenarioLocation

    /// Creates an exchange.
    package init(
        id: String, request: RequestMatcher, reply: Reply, times: Int? = 1, after: [String] = [],
        latency: Duration = .zero, release: ReleaseCondition? = nil, optional: Bool = false,
        location: ScenarioLocation
    ) {
        self.id = id
        self.request = request
        self.reply = reply
        self.times = times
        self.after = after
        self.latency = latency
        self.release = release
        self.optional = optional
        self.location = location
    }
}

/// What a request must look like for an exchange to serve it. Unset parts match anything.
package struct RequestMatcher: Sendable {
    /// The method, if it matters.
    package var method: HTTPMethod?
    /// The path rule, if it matters.
    package var path: PathRule?
    /// Query parameters that must be present with these values (others may be present too).
    package var query: [(name: String, value: String)]
    /// Header fields that must be present with these values (names ignore case).
    package var headers: HTTPFields
    /// The body rule, if it matters.
    package var body: BodyRule?

    /// Creates a matcher.
    package init(
        method: HTTPMethod? = nil, path: PathRule? = nil, query: [(name: String, value: String)] = [],
        headers: HTTPFields = [:], body: BodyRule? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// How a matcher looks at the path.
package enum PathRule: Sendable, Hashable {
    /// The path equals this string.
    case exact(String)
    /// A pattern with `{name}` for one segment and `*` for any rest, such as `/users/{id}/block`.
    case pattern(String)
}

/// How a matcher looks at the body.
package enum BodyRule: Sendable, Hashable {
    /// The body parses as JSON containing this value (objects by subset, arrays and scalars exactly).
    case jsonSubset(JSONValue)
    /// The body, as UTF-8 text, equals this.
    case text(String)
}

/// The backend's answer to a matched request.
package enum Reply: Sendable {
    /// An HTTP response (its body from `json`, `text`, `file` or `base64` in the scenario).
    case response(HTTPResponse)
    /// No response: the transport fails the way URLSession reports it.
    case fault(TransportError.Code)
}

/// When held replies go out.
package enum ReleaseCondition: Sendable, Hashable {
    /// Once this many requests for the exchange are waiting (they all go out together).
    case whenPending(Int)
    /// When the runner reaches the step with this name.
    case atStep(String)
}

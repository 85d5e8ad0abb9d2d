import Foundation

/// One call of the board's API, built by the screens and sent by ``APIClient``.
public struct APIRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PATCH`, ...
    public var method: String
    /// The path below the base URL (`/tasks/t-3`).
    public var path: String
    /// Query items, in order.
    public var query: [URLQueryItem]
    /// A JSON body, if any.
    public var body: Data?

    /// Creates a request.
    public init(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    /// `GET /me`.
    public static let me = APIRequest("GET", "/me")
    /// `GET /tasks`: the board's tasks.
    public static let tasks = APIRequest("GET", "/tasks")
    /// `GET /activity`: the board's recent activity.
    public static let activity = APIRequest("GET", "/activity")

    /// `GET /tasks/{id}`.
    public static func task(_ id: String) -> APIRequest { APIRequest("GET", "/tasks/\(id)") }

    /// `PATCH /tasks/{id}` marking it done.
    public static func complete(_ id: String) -> APIRequest {
        APIRequest("PATCH", "/tasks/\(id)", body: JSONBody.encode(["done": true]))
    }

    /// `POST /tasks` with a title.
    public static func create(title: String) -> APIRequest {
        APIRequest("POST", "/tasks", body: JSONBody.encode(["title": title]))
    }
}

/// JSON bodies with sorted keys: a dictionary's order changes between runs, a request must not.
enum JSONBody {
    static func encode(_ object: [String: any Sendable]) -> Data? {
        try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

import ScenarioKit
import Storefront

extension StorefrontDriver {
    /// Every action the shop offers to scenarios.
    static let catalog: [ActionSpec] = [
        ActionSpec(
            "search", "GET /search?q=TEXT; a busy backend is waited for, then an alert",
            arguments: [ArgumentSpec("q", .string, required: true, "the search text")]),
        ActionSpec("openProduct", "GET /products/{id}", arguments: [ArgumentSpec("id", .string, required: true, "the product's id")]),
        ActionSpec("addToCart", "POST /cart/items", arguments: [ArgumentSpec("id", .string, required: true, "the product's id")]),
        ActionSpec("loadCart", "GET /cart"),
        ActionSpec("checkout", "POST /orders"),
        ActionSpec(
            "request",
            "Any call through the client (401: one shared refresh; 429/503: the release's backoff); value {status, attempts, body}",
            arguments: [
                ArgumentSpec("path", .string, required: true, "path, such as /cart"),
                ArgumentSpec("method", .string, "HTTP method; default GET"),
                ArgumentSpec("query", .object, "query items, name to value"),
                ArgumentSpec("json", .any, "a JSON body"),
            ]),
    ]

    /// What `given` may hold.
    static let givenCatalog: [GivenSpec] = [
        GivenSpec(
            "session", .object, "the stored session: {accessToken, refreshToken}",
            fields: [
                ArgumentSpec("accessToken", .string, required: true, "the stored access token"),
                ArgumentSpec("refreshToken", .string, required: true, "the stored refresh token"),
            ])
    ]

    /// How `scenario import` maps a capture of the shop: the refresh is the client's own, a 429
    /// or 503 it waits out itself (three sends, up to a minute) is retried inside the same
    /// `request`, every call is a `request`, and the stored session goes to `given.session`.
    public var traceImport: TraceImportSpec {
        TraceImportSpec(
            requestAction: "request", appRequests: [.init("POST", "/auth/refresh")],
            stackRetry: .init(statuses: [429, 503], longestWait: .seconds(BackoffPolicy.longestWait)),
            given: { credentials in
                guard let access = credentials.accessToken, let refresh = credentials.refreshToken else { return [:] }
                return ["session": ["accessToken": .string(access), "refreshToken": .string(refresh)]]
            })
    }
}

/// What a driver tells the trace importer about its stack, so the importer stays generic:
/// which requests the stack sends by itself (they become scripted exchanges, not steps), which
/// action sends any request, which action starts the app, and how a captured credential
/// becomes `given`.
public struct TraceImportSpec: Sendable {
    /// A route: a method (or any) and a path pattern (`{name}` for one segment, final `*` for the rest).
    public struct Route: Sendable, Hashable {
        /// The method, upper-case; `nil` matches any.
        public var method: String?
        /// The path pattern.
        public var path: String

        /// Creates a route.
        public init(_ method: String?, _ path: String) {
            self.method = method
            self.path = path
        }

        /// Whether a request with this method and path takes this route.
        public func matches(method: String, path: String) -> Bool {
            if let own = self.method, own != method { return false }
            let patternParts = self.path.split(separator: "/", omittingEmptySubsequences: false)
            let pathParts = path.split(separator: "/", omittingEmptySubsequences: false)
            for (index, part) in patternParts.enumerated() {
                if part == "*" && index == patternParts.count - 1 { return true }
                guard index < pathParts.count else { return false }
                if part.hasPrefix("{") && part.hasSuffix("}") {
                    if pathParts[index].isEmpty { return false }
                } else if part != pathParts[index] {
                    return false
                }
            }
            return patternParts.count == pathParts.count
        }
    }

    /// A request a dedicated action sends (sign-in, sign-out): it becomes that action, with
    /// arguments taken from the request's JSON body.
    public struct ActionRule: Sendable, Hashable {
        /// The request.
        public var route: Route
        /// The action.
        public var action: String
        /// Argument name to the body member it comes from.
        public var arguments: [String: String]

        /// Creates a rule.
        public init(_ route: Route, action: String, arguments: [String: String] = [:]) {
            self.route = route
            self.action = action
            self.arguments = arguments
        }
    }

    /// The action that sends any request, taking `method`, `path`, `query` (object of strings)
    /// and `json` arguments; `nil` when the driver has none (then import is not possible).
    public var requestAction: String?
    /// Requests the stack sends by itself (a token refresh, a health check).
    public var appRequests: [Route]
    /// Requests that dedicated actions send; checked before the request action.
    public var actionRules: [ActionRule]
    /// The action that starts the app, if a trace that opens with `startRequests` should begin with it.
    public var startAction: String?
    /// Requests the start action sends (a health check, the current user).
    public var startRequests: [Route]
    /// Builds `given` from the first bearer credential and refresh token the trace shows
    /// (already redacted when redaction is on); `nil` gives an empty `given`.
    public var given: (@Sendable (_ accessToken: String?, _ refreshToken: String?) -> JSONValue)?

    /// Creates a description.
    public init(
        requestAction: String?, appRequests: [Route] = [], actionRules: [ActionRule] = [], startAction: String? = nil,
        startRequests: [Route] = [],
        given: (@Sendable (_ accessToken: String?, _ refreshToken: String?) -> JSONValue)? = nil
    ) {
        self.requestAction = requestAction
        self.appRequests = appRequests
        self.actionRules = actionRules
        self.startAction = startAction
        self.startRequests = startRequests
        self.given = given
    }

    /// No description: traces cannot be imported for this driver.
    public static let unsupported = TraceImportSpec(requestAction: nil)
}

extension ScenarioDriver {
    /// By default a driver says nothing about traces, and import refuses politely.
    public var traceImport: TraceImportSpec { .unsupported }
}

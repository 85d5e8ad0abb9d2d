/// What a driver tells the trace importer about its stack, so the importer stays generic:
/// which requests the stack sends by itself (they become scripted exchanges, not steps), which
/// action sends any request, which action starts the app, and how a captured credential
/// becomes `given`.
public struct TraceImportSpec: Sendable {
    /// A request a dedicated action sends (sign-in, sign-out): it becomes that action, with
    /// arguments taken from the request's JSON body.
    public struct ActionRule: Sendable, Hashable {
        /// The request.
        public var endpoint: Endpoint
        /// The action.
        public var action: String
        /// Argument name to the body member it comes from.
        public var arguments: [String: String]

        /// The request, by its earlier name.
        @available(*, deprecated, renamed: "endpoint")
        public var route: Endpoint {
            get { endpoint }
            set { endpoint = newValue }
        }

        /// Creates a rule.
        public init(_ endpoint: Endpoint, action: String, arguments: [String: String] = [:]) {
            self.endpoint = endpoint
            self.action = action
            self.arguments = arguments
        }
    }

    /// The action that sends any request, taking `method`, `path`, `query` (object of strings)
    /// and `json` arguments; `nil` when the driver has none (then import is not possible).
    public var requestAction: String?
    /// The request action's Boolean argument that, given `false`, sends the call without the
    /// session's credentials (`"auth"`); the import gives it to every call the trace shows was
    /// sent without an `Authorization` header, so an unauthenticated call replays signed out too.
    /// `nil` when the action has none.
    public var requestWithoutCredentials: String?
    /// Requests the stack sends by itself (a token refresh, a health check).
    public var appRequests: [Endpoint]
    /// Requests that dedicated actions send; checked before the request action.
    public var actionRules: [ActionRule]
    /// The action that starts the app, if a trace that opens with `startRequests` should begin with it.
    public var startAction: String?
    /// Requests the start action sends (a health check, the current user).
    public var startRequests: [Endpoint]
    /// How the stack retries a refused request by itself, within one action: once the wait is
    /// over it sends the same request again. Such a repeat is the stack's (an exchange of the same
    /// step), not a second request of the user's; ``stackRetry`` says the stack does this.
    public struct StackRetry: Sendable, Hashable {
        /// The statuses it retries after (`429`, `503`).
        public var statuses: Set<Int>
        /// The longest wait it sits out itself; an answer asking for longer (`Retry-After: 3600`)
        /// reaches the user, and a repeat after it is the user's.
        public var longestWait: Duration

        /// Creates a description of the stack's retry.
        public init(statuses: Set<Int> = [429, 503], longestWait: Duration = .seconds(60)) {
            self.statuses = statuses
            self.longestWait = longestWait
        }
    }

    /// How the stack retries by itself after a 429 or 503, if it does (`nil`: it never does, and
    /// every repeat is the user's).
    public var stackRetry: StackRetry?

    /// The credentials a trace shows the app already had when it starts: they must come from a
    /// stored session in `given`, or the imported scenario cannot pass.
    public struct Credentials: Sendable, Hashable {
        /// The first bearer credential the trace sends that no answer in it handed out (the part
        /// after `Bearer `), already redacted when redaction is on.
        public var accessToken: String?
        /// The first refresh token a request body sends that no answer handed out.
        public var refreshToken: String?

        /// Creates credentials.
        public init(accessToken: String? = nil, refreshToken: String? = nil) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }

        /// Whether the trace shows no credential the app already had.
        public var isEmpty: Bool { accessToken == nil && refreshToken == nil }
    }

    /// Builds the members of `given` that store those credentials the way the driver reads
    /// them, such as `["session": ["accessToken": ...]]`. Without it, a trace that sends a
    /// credential it never obtained cannot be imported: the draft would start signed out.
    ///
    /// A credential the trace does not show is left out, not written as `null` (which a `given`
    /// key declared as a string refuses):
    ///
    /// ```swift
    /// given: { credentials in
    ///     guard let access = credentials.accessToken else { return [:] }
    ///     var session: JSONObject = ["accessToken": .string(access)]
    ///     if let refresh = credentials.refreshToken { session["refreshToken"] = .string(refresh) }
    ///     return ["session": .object(session)]
    /// }
    /// ```
    public var given: (@Sendable (_ credentials: Credentials) -> JSONValue)?

    /// Creates a description.
    public init(
        requestAction: String?, requestWithoutCredentials: String? = nil, appRequests: [Endpoint] = [], actionRules: [ActionRule] = [],
        startAction: String? = nil, startRequests: [Endpoint] = [], stackRetry: StackRetry? = nil,
        given: (@Sendable (_ credentials: Credentials) -> JSONValue)? = nil
    ) {
        self.requestAction = requestAction
        self.requestWithoutCredentials = requestWithoutCredentials
        self.appRequests = appRequests
        self.actionRules = actionRules
        self.startAction = startAction
        self.startRequests = startRequests
        self.stackRetry = stackRetry
        self.given = given
    }

    /// Creates a description whose `given` takes the two credentials apart: the spelling before
    /// ``Credentials``, kept for drivers written against it.
    @available(*, deprecated, message: "'given' takes TraceImportSpec.Credentials: given: { credentials in ... }")
    public init(
        requestAction: String?, appRequests: [Endpoint] = [], actionRules: [ActionRule] = [], startAction: String? = nil,
        startRequests: [Endpoint] = [],
        given: (@Sendable (_ accessToken: String?, _ refreshToken: String?) -> JSONValue)?
    ) {
        var credentialsGiven: (@Sendable (Credentials) -> JSONValue)?
        if let given { credentialsGiven = { given($0.accessToken, $0.refreshToken) } }
        self.init(
            requestAction: requestAction, appRequests: appRequests, actionRules: actionRules, startAction: startAction,
            startRequests: startRequests, given: credentialsGiven)
    }

    /// No description: traces cannot be imported for this driver.
    public static let unsupported = TraceImportSpec(requestAction: nil)
}

extension ScenarioDriver {
    /// By default a driver says nothing about traces, and import refuses politely.
    public var traceImport: TraceImportSpec { .unsupported }
}

import ScenarioKit

extension MessengerDriver {
    /// Every action the messenger offers to scenarios.
    static let catalog: [ActionSpec] = [
        ActionSpec("launch", "App start: the inbox with a stored session, sign-in without one (no request)"),
        ActionSpec(
            "signIn", "Email sign-in (POST /auth/login), then the inbox",
            arguments: [
                ArgumentSpec("email", .string, required: true, "the email"),
                ArgumentSpec("password", .string, required: true, "the password"),
            ]),
        ActionSpec("openInbox", "GET /conversations, then the live sync starts (GET /sync?cursor=N, polled while there is more)"),
        ActionSpec(
            "sendMessage", "POST /conversations/{conversation}/messages",
            arguments: [
                ArgumentSpec("conversation", .string, required: true, "the conversation's id"),
                ArgumentSpec("text", .string, required: true, "the message"),
            ]),
        ActionSpec("signOut", "Regular sign-out: POST /auth/logout, no alert (and the release's handling of the calls on their way)"),
        ActionSpec(
            "request", "Any authenticated call through the calls' client (401: one shared refresh, then once more); value {body}",
            arguments: [
                ArgumentSpec("path", .string, required: true, "path, such as /conversations"),
                ArgumentSpec("method", .string, "HTTP method; default GET"),
                ArgumentSpec("query", .object, "query items, name to value"),
                ArgumentSpec("json", .object, "a JSON body of string members"),
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

    /// How `scenario import` maps a capture of the messenger: the refresh and the live sync's
    /// polls are the app's own, sign-in and sign-out are their actions, every other call is a
    /// `request`, and the stored session goes to `given.session`.
    public var traceImport: TraceImportSpec {
        TraceImportSpec(
            requestAction: "request", appRequests: [.init("POST", "/auth/refresh"), .init("GET", "/sync")],
            actionRules: [
                .init(.init("POST", "/auth/login"), action: "signIn", arguments: ["email": "email", "password": "password"]),
                .init(.init("POST", "/auth/logout"), action: "signOut"),
            ],
            given: { credentials in
                guard let access = credentials.accessToken, let refresh = credentials.refreshToken else { return [:] }
                return ["session": ["accessToken": .string(access), "refreshToken": .string(refresh)]]
            })
    }
}

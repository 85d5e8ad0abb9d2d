import ScenarioKit

extension TaskBoardDriver {
    /// Every action the board offers to scenarios.
    static let catalog: [ActionSpec] = [
        ActionSpec("launch", "App start: GET /me with the stored session, then the board; sign-in without one"),
        ActionSpec(
            "signIn", "Email sign-in (POST /auth/login), then the board",
            arguments: [
                ArgumentSpec("email", .string, required: true, "the email"),
                ArgumentSpec("password", .string, required: true, "the password"),
            ]),
        ActionSpec("loadBoard", "The board appears or is pulled to refresh: GET /tasks and GET /activity at once"),
        ActionSpec(
            "completeTask", "PATCH /tasks/{id} marking it done", arguments: [ArgumentSpec("id", .string, required: true, "the task's id")]),
        ActionSpec("addTask", "POST /tasks", arguments: [ArgumentSpec("title", .string, required: true, "the new task's title")]),
        ActionSpec("signOut", "Regular sign-out: POST /auth/logout, no alert"),
        ActionSpec(
            "request", "Any authenticated call through the client (401: renew the tokens, send once more); value {status, body}",
            arguments: [
                ArgumentSpec("path", .string, required: true, "path, such as /tasks"),
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
}

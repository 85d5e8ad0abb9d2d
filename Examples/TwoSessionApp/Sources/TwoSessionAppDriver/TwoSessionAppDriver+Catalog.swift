import ScenarioKit

extension TwoSessionAppDriver {
    /// Every action the app offers to scenarios.
    static let catalog: [ActionSpec] = [
        ActionSpec("bootstrap", "App start: GET /health (polling while down), then GET /users/me and the startup decision"),
        ActionSpec(
            "login", "Email sign-in through the auth client (POST /auth/login)",
            arguments: [
                ArgumentSpec("email", .string, required: true, "the email"),
                ArgumentSpec("password", .string, required: true, "the password"),
            ]),
        ActionSpec("logout", "Regular sign-out: wipe, POST /auth/logout through the auth client, no alert"),
        ActionSpec(
            "request", "An authenticated call through the api client; value {status, attempts, elapsed, data}",
            arguments: [
                ArgumentSpec("path", .string, required: true, "path, such as /feed"),
                ArgumentSpec("method", .string, "HTTP method; default GET"),
            ]),
    ]

    /// What `given` may hold.
    static let givenCatalog: [GivenSpec] = [
        GivenSpec(
            "session", .object, "stored tokens: {accessToken, refreshToken}",
            fields: [
                ArgumentSpec("accessToken", .string, required: true, "the stored access token"),
                ArgumentSpec("refreshToken", .string, "the stored refresh token"),
            ]),
        GivenSpec(
            "config", .object, "{healthPollInterval: duration}",
            fields: [ArgumentSpec("healthPollInterval", .duration, "wait between health checks while the backend is down; default 15s")]),
    ]
}

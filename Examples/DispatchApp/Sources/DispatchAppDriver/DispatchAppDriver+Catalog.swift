import ScenarioKit

extension DispatchAppDriver {
    /// Every action the Dispatch app offers to scenarios (names and arguments as SessionKit's).
    static let catalog: [ActionSpec] = [
        ActionSpec("bootstrap", "App start: health check (polling while down), GET /users/me with the stored token, the startup decision"),
        ActionSpec(
            "login", "Email sign-in (POST /auth/login)",
            arguments: [
                ArgumentSpec("email", .string, required: true, "the email"),
                ArgumentSpec("password", .string, required: true, "the password"),
            ]),
        ActionSpec("logout", "Regular sign-out: POST /auth/logout, no alert"),
        ActionSpec(
            "request", "Any authenticated call: shared refresh on expiry, backoff on 429/503; value {status, attempts, elapsed, data}",
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
            fields: [ArgumentSpec("healthPollInterval", .duration, "wait between health checks while the backend is down (default 15s)")]),
    ]
}

import ScenarioKit

extension SessionKitDriver {
    /// Every action SessionKit offers to scenarios.
    static let catalog: [ActionSpec] = [
        // Auth
        ActionSpec("bootstrap", "App start: health check (polling while unhealthy), then GET /users/me and the startup decision"),
        ActionSpec(
            "login", "Email sign-in (POST /auth/login)",
            arguments: [
                ArgumentSpec("email", .string, required: true, "the email"),
                ArgumentSpec("password", .string, required: true, "the password"),
            ]),
        ActionSpec(
            "register", "Create an account (POST /auth/register)",
            arguments: [
                ArgumentSpec("name", .string, required: true, "display name"),
                ArgumentSpec("email", .string, required: true, "the email"),
                ArgumentSpec("password", .string, required: true, "the password"),
            ]),
        ActionSpec("logout", "Regular sign-out: POST /auth/logout, wipe, no alert"),
        ActionSpec("resetBlockedGuard", "Re-arm the once-per-session blocked-user guard (test hook)"),
        // Any authenticated call
        ActionSpec(
            "request", "Any call through the HTTP client, with the session's token unless \"auth\": false",
            arguments: [
                ArgumentSpec("method", .string, "HTTP method; default GET"),
                ArgumentSpec("path", .string, required: true, "path, such as /feed"),
                ArgumentSpec("query", .object, "query parameters (string values)"),
                ArgumentSpec("json", .any, "JSON body"),
                ArgumentSpec("auth", .boolean, "false: send without the session's token, signed in or not (default true)"),
            ]),
        // User
        ActionSpec("loadUser", "GET /users/me"),
        ActionSpec("updateUser", "PATCH /users/me", arguments: [ArgumentSpec("fields", .object, required: true, "the fields to change")]),
        ActionSpec("deleteAccount", "DELETE /users/me, then wipe"),
        ActionSpec("relatedUsers", "GET /users/related"),
        // Password reset
        ActionSpec(
            "forgotPassword", "Password reset request with the client cooldown and the server's rate limit",
            arguments: [
                ArgumentSpec("email", .string, required: true, "the email")
            ]),
        // Phone verification
        ActionSpec(
            "sendCode", "Send a sign-in code (POST /auth/phone/code) and start the resend countdown",
            arguments: [
                ArgumentSpec("phone", .string, required: true, "phone number"),
                ArgumentSpec("region", .string, required: true, "region code, such as US"),
            ]),
        ActionSpec(
            "verify", "Verify the code (POST /auth/phone/verify)", arguments: [ArgumentSpec("code", .string, required: true, "the code")]),
        ActionSpec("resend", "Send the code again and restart the countdown"),
        ActionSpec("back", "Leave the code screen: clear code, id and countdown"),
        ActionSpec("requestSignOut", "Tap sign out: shows the confirmation alert"),
        ActionSpec("confirmSignOut", "Confirm the sign-out alert"),
        ActionSpec("cancelSignOut", "Cancel the sign-out alert"),
        // Blocking other users
        ActionSpec("block", "Block a user (PUT /users/{id}/block)", arguments: [ArgumentSpec("id", .string, required: true, "user id")]),
        ActionSpec(
            "unblock", "Unblock a user (DELETE /users/{id}/block)", arguments: [ArgumentSpec("id", .string, required: true, "user id")]),
        ActionSpec("loadBlocked", "Reload the blocked-id cache (GET /users/me/blocked)"),
        ActionSpec(
            "search", "Search users, filtered both ways (GET /users/search)",
            arguments: [ArgumentSpec("q", .string, required: true, "query")]),
        ActionSpec("feed", "The feed, without posts of blocked users (GET /feed)"),
        // Health and device
        ActionSpec("checkHealth", "One health check now"),
        ActionSpec("startHealthPolling", "Start polling /health at the configured interval"),
        ActionSpec("enterBackground", "App goes to background: polling stops"),
        ActionSpec("enterForeground", "App returns: a burst check, then polling again"),
        ActionSpec(
            "setConnectivity", "Change the device's connectivity",
            arguments: [
                ArgumentSpec("state", .string, required: true, "online or offline", choices: ["online", "offline"])
            ]),
    ]

    /// What `given` may hold.
    static let givenCatalog: [GivenSpec] = [
        GivenSpec(
            "session", .object, "stored session: {accessToken, refreshToken, user: {id, name, email, active}}",
            fields: [
                ArgumentSpec("accessToken", .string, required: true, "the stored access token"),
                ArgumentSpec("refreshToken", .string, "the stored refresh token"),
                ArgumentSpec(
                    "user", .object, "the cached user",
                    fields: [
                        ArgumentSpec("id", .string, required: true, "user id"), ArgumentSpec("name", .string, "display name"),
                        ArgumentSpec("email", .string, "email"), ArgumentSpec("active", .boolean, "false for an inactive account"),
                    ]),
            ]),
        GivenSpec("preferences", .object, "stored session preferences (string values)", eachValue: .string),
        GivenSpec("connectivity", .string, "online (default) or offline", choices: ["online", "offline"]),
        GivenSpec(
            "config", .object, "{healthPollInterval, resetCooldown: durations; verificationCountdown: seconds}",
            fields: [
                ArgumentSpec("healthPollInterval", .duration, "wait between health checks while polling"),
                ArgumentSpec("resetCooldown", .duration, "how long password reset stays disabled"),
                ArgumentSpec("verificationCountdown", .positiveInteger, "the resend countdown, in seconds"),
            ]),
    ]
}

/// The fixed alerts of the session stack, worded in one place.
extension SessionAlert {
    /// Shown once when a 403 reveals that the account is blocked.
    public static let accountBlocked = SessionAlert(
        title: "Account Blocked",
        message: "Your account has been blocked. Please contact support.")

    /// Asks before signing out.
    public static let signOutConfirmation = SessionAlert(
        title: "Sign Out",
        message: "Are you sure you want to sign out?",
        actions: [AlertAction(title: "Sign Out", role: .destructive), AlertAction(title: "Cancel", role: .cancel)])
}

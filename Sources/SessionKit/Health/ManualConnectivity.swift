/// A ``ConnectivitySource`` that is told its state: tests, scenarios and previews.
public actor ManualConnectivity: ConnectivitySource {
    private var online: Bool

    /// Creates a source, online unless told otherwise.
    public init(online: Bool = true) {
        self.online = online
    }

    /// The state last set.
    public func isOnline() -> Bool { online }

    /// Changes the state.
    public func setOnline(_ online: Bool) {
        self.online = online
    }
}

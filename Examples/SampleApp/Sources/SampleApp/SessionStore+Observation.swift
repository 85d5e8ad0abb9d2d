#if canImport(Combine)
    import Combine

    extension SessionStore: ObservableObject {}

    extension SessionStore {
        /// Tells SwiftUI a published-like property is about to change.
        func willChange() { objectWillChange.send() }
    }
#else
    extension SessionStore {
        // No Combine on this platform: there is nobody to tell.
        func willChange() {}
    }
#endif

#if canImport(Combine)
    import Combine

    /// SwiftUI views observe the store's `@Published` properties.
    extension SessionStore: ObservableObject {}
#endif

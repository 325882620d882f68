import Vitrine

extension Sequence<ContainerEvent> {
    /// The details of the `native` events of `action`, in order: what a test asserts on.
    public func details(of action: ContainerEvent.NativeAction) -> [String] {
        compactMap {
            if case .native(action, let detail) = $0 { return detail }
            return nil
        }
    }
}

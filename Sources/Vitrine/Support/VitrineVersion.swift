/// The version of Vitrine (the program, and what a fleet's broker is told it runs).
public enum VitrineVersion {
    public static let string = "0.1.0"
}

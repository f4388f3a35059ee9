import VerifierKit
print("stub")

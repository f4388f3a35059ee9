/// PEM keys made with the `openssl` 3.0 CLI when these tests were written (`genpkey`, `pkey`,
/// `rsa -RSAPublicKey_out`, `ec`, `pkcs8 -topk8`). Test data only: the private keys are public.
enum PEMFixtures {
    /// RSA-2048 private key, PKCS#8 (`PRIVATE KEY`).
    static let rsaPKCS8 = """
    -----BEGIN PRIVATE KEY-----
    MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCsLPmAHirasY0+
    QByTBi/P2K76mpQeI+D6LUKMyDY/Yg+ZFdv3RTAjDaRJegaLHNYOqTk7vTxENWOy
    7lnWeVXl3e/ALhT4datoexTjhL/A9Z2i6ioyJe50R4OOeOwWiUaCwEDzv1noARGr
    jdnow6LMnF1xrlmtKtcFBwbUaBTCAM/dPTVFa09mGHJQdisjIDHTms53iCFp04u1
    yzFtLtmwtgyqiQmw1aw9lBidt143mbn9cx/5bd+bWouo0LpBMFrAKFTC1AWcpfdU
    Q86fDXSlT0X6volkrsokKbb4mnd5+SZQyIfSMdG4aBV8URTGSW+rPIJLzaYVoUEN
    EZUwCt65AgMBAAECggEAN7zXiII7nVCdSOm4VmBKWh7rhnVEPf2fd13vjWPDLAGy
    yvwomYPscWyZIrA+LgrHwTdHL++y8uHVxLckninphOC0HKLOZyCwvMIboQv4h577
    ySHFRzbAWyRLknPS+fi2ut1CKaZolJLEBaWGRbQPn+1+0q5+mXCk6xu7Okf3cFYK
    hqZvXHbWGZA33kyYoMsRnpZTlgZ56VF2vyWihNLLpo+zyljhD7KPjltPXOz3B4sO
    04imZCZlriXqdyDjcMXHxImbzDhyz5VBhliyRI02nJBMiAHlqzZAx2JlXp9sp2OV
    8UBw0S3PEtm9yazULXdFkIrRFsJCDFijisL1ZxI9gQKBgQDktr+GBBcKffYWiXos
    HZAyRu34TQuCaulDLhwXNsyE9KXqVTO4r8nmBGT5SDMUuFCG/9QI5Hyb39+mp3Z2
    WQx4S2YYE07VPPCEYFuRu47h+ZsjnJug958kGmp2tKoyE/tkMQS86bAAedPQRQLb
    DlvI022TP8V4MvG+eJT0jwPXbwKBgQDAt3gDZSn1Ktt8zwoBkCLjodDptZAe/4zX
    MgIZUGIh2LE3QXzzEpIng/YA7IkQ4C2DtSIPNHNFB2gQSWu00/NSsY5+EDFpbFqA
    6AHPphtlwyx+vn5BE4eWnyN9QrjrWXB4H36myT9mqpZi6AWo/a22MZPWUOol/J63
    DUPdg/nYVwKBgQCUIFuoY0u86tmPvRgYLElwlomXD+cNX0qVzO46hq4syfoO64Gk
    8ozzYRM4c+9JUxosZNIhtEGT/olt+PV7Lq8p1cNYgmDDMEWhpnqHxw6CAlPc25fb
    x6QVENq06Mt1xYVCXZDw/PSVSlHJiHiSARmm1nAYNuwgrfXtY1EtltZpFwKBgH9B
    p5I2XzpxjnYgES9vClreI6HwLrcJcOs5LoGgvuwytvMR33xzKufFD9EUYH4wSl3K
    Yi9AJ03R0jnPAbxqqSZV8Q31i2teDXVJvshrm3PbKaqYB67ZQpOHilvQj2N5r/bi
    dTOVeLRGuP+ezv4EZY0Ft+WxkKx84CFoNQQ1feoJAoGBAOMIZ4+Pc/JYdHPsUlHi
    XBy2SKMqP47As9Yl03Iv47SMXve+lyz/AftAaR0p6d1ccbjWch5Pk7BUFOrv/iF7
    uO0Kmm7eOw4D0jIXSRrGQMyOF9GPxzItUDArAIwadmHBko88V4LF7ejFDtyU+CGN
    9MUMGK3lYB1k0DYrXC7undI4
    -----END PRIVATE KEY-----
    """
    /// The same RSA key, PKCS#1 (`RSA PRIVATE KEY`).
    static let rsaPKCS1Private = """
    -----BEGIN RSA PRIVATE KEY-----
    MIIEpAIBAAKCAQEArCz5gB4q2rGNPkAckwYvz9iu+pqUHiPg+i1CjMg2P2IPmRXb
    90UwIw2kSXoGixzWDqk5O708RDVjsu5Z1nlV5d3vwC4U+HWraHsU44S/wPWdouoq
    MiXudEeDjnjsFolGgsBA879Z6AERq43Z6MOizJxdca5ZrSrXBQcG1GgUwgDP3T01
    RWtPZhhyUHYrIyAx05rOd4ghadOLtcsxbS7ZsLYMqokJsNWsPZQYnbdeN5m5/XMf
    +W3fm1qLqNC6QTBawChUwtQFnKX3VEPOnw10pU9F+r6JZK7KJCm2+Jp3efkmUMiH
    0jHRuGgVfFEUxklvqzyCS82mFaFBDRGVMAreuQIDAQABAoIBADe814iCO51QnUjp
    uFZgSloe64Z1RD39n3dd741jwywBssr8KJmD7HFsmSKwPi4Kx8E3Ry/vsvLh1cS3
    JJ4p6YTgtByizmcgsLzCG6EL+Iee+8khxUc2wFskS5Jz0vn4trrdQimmaJSSxAWl
    hkW0D5/tftKufplwpOsbuzpH93BWCoamb1x21hmQN95MmKDLEZ6WU5YGeelRdr8l
    ooTSy6aPs8pY4Q+yj45bT1zs9weLDtOIpmQmZa4l6ncg43DFx8SJm8w4cs+VQYZY
    skSNNpyQTIgB5as2QMdiZV6fbKdjlfFAcNEtzxLZvcms1C13RZCK0RbCQgxYo4rC
    9WcSPYECgYEA5La/hgQXCn32Fol6LB2QMkbt+E0LgmrpQy4cFzbMhPSl6lUzuK/J
    5gRk+UgzFLhQhv/UCOR8m9/fpqd2dlkMeEtmGBNO1TzwhGBbkbuO4fmbI5yboPef
    JBpqdrSqMhP7ZDEEvOmwAHnT0EUC2w5byNNtkz/FeDLxvniU9I8D128CgYEAwLd4
    A2Up9SrbfM8KAZAi46HQ6bWQHv+M1zICGVBiIdixN0F88xKSJ4P2AOyJEOAtg7Ui
    DzRzRQdoEElrtNPzUrGOfhAxaWxagOgBz6YbZcMsfr5+QROHlp8jfUK461lweB9+
    psk/ZqqWYugFqP2ttjGT1lDqJfyetw1D3YP52FcCgYEAlCBbqGNLvOrZj70YGCxJ
    cJaJlw/nDV9KlczuOoauLMn6DuuBpPKM82ETOHPvSVMaLGTSIbRBk/6Jbfj1ey6v
    KdXDWIJgwzBFoaZ6h8cOggJT3NuX28ekFRDatOjLdcWFQl2Q8Pz0lUpRyYh4kgEZ
    ptZwGDbsIK317WNRLZbWaRcCgYB/QaeSNl86cY52IBEvbwpa3iOh8C63CXDrOS6B
    oL7sMrbzEd98cyrnxQ/RFGB+MEpdymIvQCdN0dI5zwG8aqkmVfEN9YtrXg11Sb7I
    a5tz2ymqmAeu2UKTh4pb0I9jea/24nUzlXi0Rrj/ns7+BGWNBbflsZCsfOAhaDUE
    NX3qCQKBgQDjCGePj3PyWHRz7FJR4lwctkijKj+OwLPWJdNyL+O0jF73vpcs/wH7
    QGkdKendXHG41nIeT5OwVBTq7/4he7jtCppu3jsOA9IyF0kaxkDMjhfRj8cyLVAw
    KwCMGnZhwZKPPFeCxe3oxQ7clPghjfTFDBit5WAdZNA2K1wu7p3SOA==
    -----END RSA PRIVATE KEY-----
    """
    /// The same RSA key's public part, PKCS#1 (`RSA PUBLIC KEY`).
    static let rsaPKCS1Public = """
    -----BEGIN RSA PUBLIC KEY-----
    MIIBCgKCAQEArCz5gB4q2rGNPkAckwYvz9iu+pqUHiPg+i1CjMg2P2IPmRXb90Uw
    Iw2kSXoGixzWDqk5O708RDVjsu5Z1nlV5d3vwC4U+HWraHsU44S/wPWdouoqMiXu
    dEeDjnjsFolGgsBA879Z6AERq43Z6MOizJxdca5ZrSrXBQcG1GgUwgDP3T01RWtP
    ZhhyUHYrIyAx05rOd4ghadOLtcsxbS7ZsLYMqokJsNWsPZQYnbdeN5m5/XMf+W3f
    m1qLqNC6QTBawChUwtQFnKX3VEPOnw10pU9F+r6JZK7KJCm2+Jp3efkmUMiH0jHR
    uGgVfFEUxklvqzyCS82mFaFBDRGVMAreuQIDAQAB
    -----END RSA PUBLIC KEY-----
    """
    /// P-256 private key, PKCS#8.
    static let ecPKCS8 = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg5jjrksntJPXwo+QP
    QRvtmVlVHSbOwUHlseYeb+EjueuhRANCAASdkpDGJDxy7J7bZ+g+QtQh6+I/Adkn
    kRNxtaQJDgt0QjtgneFvdtLD2nccC2LFvxMk39poAaKczQTm7Wj3dU7/
    -----END PRIVATE KEY-----
    """
    /// The same P-256 key, SEC1 (`EC PRIVATE KEY`).
    static let ecSEC1 = """
    -----BEGIN EC PRIVATE KEY-----
    MHcCAQEEIOY465LJ7ST18KPkD0Eb7ZlZVR0mzsFB5bHmHm/hI7nroAoGCCqGSM49
    AwEHoUQDQgAEnZKQxiQ8cuye22foPkLUIeviPwHZJ5ETcbWkCQ4LdEI7YJ3hb3bS
    w9p3HAtixb8TJN/aaAGinM0E5u1o93VO/w==
    -----END EC PRIVATE KEY-----
    """
    /// The same P-256 key's public part, SPKI (`PUBLIC KEY`).
    static let ecSPKI = """
    -----BEGIN PUBLIC KEY-----
    MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEnZKQxiQ8cuye22foPkLUIeviPwHZ
    J5ETcbWkCQ4LdEI7YJ3hb3bSw9p3HAtixb8TJN/aaAGinM0E5u1o93VO/w==
    -----END PUBLIC KEY-----
    """
    /// The same P-256 key, encrypted PKCS#8 (passphrase `secret`).
    static let ecEncryptedPKCS8 = """
    -----BEGIN ENCRYPTED PRIVATE KEY-----
    MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAjGfi5zB3BrPAICCAAw
    DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEFpi18AXkS8b2kSbQtAID1QEgZDz
    jub6fxBtzNU1J/CQXUikEenCrp3i6B7ac70erVa/ELLPqliVI36abQT9s3zdlJxT
    Lbe9K0puosBes+PS10EEJfpAbkAtV454MFHt7QYFMN4sEmoGgF9dKhrDR4sjNN4N
    /7Xdt+zjocQDh7EBgtgiD7tXdQhiTOB1KtBZsiiVCw/OxRLBZEQwj5Hp8igFruY=
    -----END ENCRYPTED PRIVATE KEY-----
    """
    /// The same P-256 key, legacy encrypted SEC1 (passphrase `secret`).
    static let ecEncryptedSEC1 = """
    -----BEGIN EC PRIVATE KEY-----
    Proc-Type: 4,ENCRYPTED
    DEK-Info: AES-256-CBC,489D4F984D239FAC2D799BACCEAFB8F6
    
    o2Pj6+esAZNuEL2EJDVPu88q4OyXQc6Xd91Ib2e/9ESAsskx2HVn9sKgheF94m7d
    arAXvk5413Ig+V4/pLwPNNtep2kz8+nMHWjeTGp6RqNqPhGH1mx+ANqLokbyjLMO
    RaC/d8jDCOj4q1pD8Fd/ZtHBkzLhx5WEFh9MgtG+1Qw=
    -----END EC PRIVATE KEY-----
    """
    /// P-384 private key, PKCS#8.
    static let p384PKCS8 = """
    -----BEGIN PRIVATE KEY-----
    MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCEteMNKFoMLgWLRuKH
    4AvtJjH9dg5AswWEP44hCwvYaJ91dWNyZ5ojsD/ZJWZ7TQ+hZANiAARppd03d7Km
    SFD7MFOr98wxYSr9yFINHO9z+FP0lBFV10JF1Qj9b4xXEhubqKPQeFSWChhadPzX
    crqYzrPCBL/WhNFK7/o2tWFpQlI1KOzFP+GP7HXYXi5XKh9fT5AeNiA=
    -----END PRIVATE KEY-----
    """
    /// P-521 private key, PKCS#8.
    static let p521PKCS8 = """
    -----BEGIN PRIVATE KEY-----
    MIHuAgEAMBAGByqGSM49AgEGBSuBBAAjBIHWMIHTAgEBBEIBXS2leGyqrjcq1hy0
    K+Qh7omKBs2JEZFOUGaHZqpGSBSaTi/wRvlFGLgRnjyL9y4CdFHFSzc6ZZ1leN6J
    P/MpIeOhgYkDgYYABAFrKSYrSnvXK73l0FLnUrj+Piavf9FvyqpagUeFmBo1BrA8
    cSKIXswuLiS+YPIi+ySwaM+n9qLxtUPmCAC+3TSuDwGajJk8WodHYgGjr+etyn8w
    LwYaNrSixL2gN2k8B+lfI7e/QPA83pmorAE6Flk8iFrA8cOsX3NsMhAlfw+We6IY
    Yw==
    -----END PRIVATE KEY-----
    """
    /// secp256k1 private key, PKCS#8.
    static let secp256k1PKCS8 = """
    -----BEGIN PRIVATE KEY-----
    MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgi7ZExlRqv5k+4Hzh3tbW
    An6h+HZvZAIrmvhJlNT2jjyhRANCAASra9XuGYZEkgFSFOLtTtU9yuZYH5Nnz0j+
    GUHj3vY3Ea/De6HkOZ5peE1YKaHMYux4/C7NBUm3t6fARM5dH2w3
    -----END PRIVATE KEY-----
    """
    /// Ed25519 private key, PKCS#8.
    static let ed25519PKCS8 = """
    -----BEGIN PRIVATE KEY-----
    MC4CAQAwBQYDK2VwBCIEICuxaWN5QADaKbb3a+xNrBzLn+7Gzek7rTfcYyW+a9dK
    -----END PRIVATE KEY-----
    """
    /// Ed448 private key, PKCS#8.
    static let ed448PKCS8 = """
    -----BEGIN PRIVATE KEY-----
    MEcCAQAwBQYDK2VxBDsEOQ6ro3uQHhC8ohp10c7sXyRxwaQZ32F4O91h8T84yOdz
    HQtBdNOyrMOOiJo30PqGRXMYGOA8iZNPWQ==
    -----END PRIVATE KEY-----
    """
    /// An X25519 public key (a key-agreement key: unsupported).
    static let x25519SPKI = """
    -----BEGIN PUBLIC KEY-----
    MCowBQYDK2VuAyEA/TntTN6eMCbTqhMqN9uU3OT/UU8ZTcWPj/58s+n/oX8=
    -----END PUBLIC KEY-----
    """
    /// A brainpoolP256r1 public key (unsupported curve).
    static let brainpoolSPKI = """
    -----BEGIN PUBLIC KEY-----
    MFowFAYHKoZIzj0CAQYJKyQDAwIIAQEHA0IABGEHJiOdGvK1fzSCL9YSj6a2xtb3
    HDwiPlveIybcz0ujWB5gwYcNimBc1di0PU1RNAyDttN6crqtDOxL1lvSHOE=
    -----END PUBLIC KEY-----
    """
    /// An RSA-1024 public key (below the default policy).
    static let rsa1024SPKI = """
    -----BEGIN PUBLIC KEY-----
    MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDPoII99xn2lGQd0iix4goB03Yc
    3HrlEKA5wTCZx9I7HB1ZZUvRbMRZcU306bbj2lV6dGdCawI+dRPWQkOq9hYF11s0
    gSePnFAv/Cz28Md0+yiSQ4HXzkw1qAJ6aw2xmsbi2Ru8eDlt1N6yBIc+nH8HyR2/
    v8ifCWoYQKvhvCGmnQIDAQAB
    -----END PUBLIC KEY-----
    """
}

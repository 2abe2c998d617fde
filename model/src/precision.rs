//! The number format of inference. Training stays in fp32; a network loaded to play (self-play,
//! matches, the front ends) may run its trunk in bfloat16 or float16 where the hardware has
//! fast kernels for them, which on some CPUs with AVX512-BF16 or AMX runs the trunk about twice
//! as fast and on others slower, so `auto` measures it ([`crate::bf16_probe`]; `koma bench`
//! measures the whole network against fp32, and a test checks that the moves it prefers and
//! its values agree with fp32).

use tch::{Device, Kind};

/// A number format for inference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// 32-bit floats: the reference.
    Fp32,
    /// bfloat16: fp32's range with 8 bits of mantissa (CPUs with AVX512-BF16 or AMX, recent
    /// GPUs).
    Bf16,
    /// float16 (GPUs).
    Fp16,
}

impl Precision {
    /// The tensor kind of the trunk.
    pub fn kind(self) -> Kind {
        match self {
            Precision::Fp32 => Kind::Float,
            Precision::Bf16 => Kind::BFloat16,
            Precision::Fp16 => Kind::Half,
        }
    }
}

/// How a model prepared to play runs its inference pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inference {
    /// Through libtorch's tensors, the trunk in this format.
    Tensors(Precision),
    /// In koma's loops on a CPU with AVX-512 or AVX2 ([`crate::cpu_net`]), the convolutions
    /// in this format (fp32, or bf16 with AVX512-BF16).
    Loops(Precision),
}

impl Inference {
    /// Whether the pass runs in koma's loops.
    pub fn is_loops(self) -> bool {
        matches!(self, Inference::Loops(_))
    }
}

impl std::fmt::Display for Inference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Inference::Tensors(p) => write!(f, "libtorch {}", PrecisionChoice::Fixed(*p)),
            Inference::Loops(p) => write!(f, "loops {}", PrecisionChoice::Fixed(*p)),
        }
    }
}

/// What the user asks for: a format, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PrecisionChoice {
    /// fp16 on CUDA; on a CPU, bf16 where it has native bf16 arithmetic and a probe of one
    /// trunk block measures bf16 faster than fp32 there ([`crate::bf16_probe`]), else fp32;
    /// and on a CPU with AVX-512 or AVX2, whichever of that and koma's loops in fp32 or bf16 runs the
    /// model fastest ([`crate::Model::prepare_to_play`]).
    #[default]
    Auto,
    /// A fixed format.
    Fixed(Precision),
}

/// Whether this CPU computes in bfloat16 natively (AVX512-BF16 or AMX), without which
/// libtorch's bf16 convolutions cannot outrun its fp32 ones (with it they may or may not:
/// [`crate::bf16_probe`]).
pub fn cpu_has_bf16() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512bf16") {
            return true;
        }
        std::fs::read_to_string("/proc/cpuinfo")
            .map(|s| s.split_whitespace().any(|w| w == "amx_bf16"))
            .unwrap_or(false)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl PrecisionChoice {
    /// The format to use on `device`.
    pub fn resolve(self, device: Device) -> Precision {
        match self {
            PrecisionChoice::Fixed(p) => p,
            PrecisionChoice::Auto => match device {
                Device::Cuda(_) => Precision::Fp16,
                _ if cpu_has_bf16() && crate::bf16_probe::bf16_is_faster() => Precision::Bf16,
                _ => Precision::Fp32,
            },
        }
    }
}

/// A precision setting that is not one of the forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("precision '{0}': expected auto, fp32, bf16 or fp16")]
pub struct BadPrecision(pub String);

impl std::str::FromStr for PrecisionChoice {
    type Err = BadPrecision;

    fn from_str(s: &str) -> Result<PrecisionChoice, BadPrecision> {
        Ok(match s {
            "auto" => PrecisionChoice::Auto,
            "fp32" => PrecisionChoice::Fixed(Precision::Fp32),
            "bf16" => PrecisionChoice::Fixed(Precision::Bf16),
            "fp16" => PrecisionChoice::Fixed(Precision::Fp16),
            other => return Err(BadPrecision(other.to_owned())),
        })
    }
}

impl std::fmt::Display for PrecisionChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PrecisionChoice::Auto => "auto",
            PrecisionChoice::Fixed(Precision::Fp32) => "fp32",
            PrecisionChoice::Fixed(Precision::Bf16) => "bf16",
            PrecisionChoice::Fixed(Precision::Fp16) => "fp16",
        })
    }
}

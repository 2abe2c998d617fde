//! Run-time choice of the compute device, so one build serves CPU-only and CUDA machines.

use tch::Device;

/// Where the network runs: CUDA when the caller asks for it (or for `auto` when a GPU is
/// present), the CPU otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceChoice {
    /// CUDA device 0 when available, else the CPU.
    Auto,
    /// The CPU, even when a GPU is present.
    Cpu,
    /// A given CUDA device; an error if there is none.
    Cuda(usize),
}

/// A device was asked for that this machine does not have.
#[derive(Debug, thiserror::Error)]
#[error("CUDA device {0} requested but this machine has {1} CUDA device(s)")]
pub struct NoSuchDevice(pub usize, pub i64);

impl DeviceChoice {
    /// Resolves the choice against the machine.
    pub fn resolve(self) -> Result<Device, NoSuchDevice> {
        match self {
            DeviceChoice::Auto => Ok(Device::cuda_if_available()),
            DeviceChoice::Cpu => Ok(Device::Cpu),
            DeviceChoice::Cuda(i) => {
                let n = tch::Cuda::device_count();
                if (i as i64) < n {
                    Ok(Device::Cuda(i))
                } else {
                    Err(NoSuchDevice(i, n))
                }
            }
        }
    }
}

/// A device setting that is not one of the forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("device '{0}': expected auto, cpu, cuda or cuda:N")]
pub struct BadDevice(pub String);

impl std::str::FromStr for DeviceChoice {
    type Err = BadDevice;

    /// Reads a device setting: `auto`, `cpu`, `cuda` or `cuda:N`.
    fn from_str(s: &str) -> Result<DeviceChoice, BadDevice> {
        match s {
            "auto" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" => Ok(DeviceChoice::Cuda(0)),
            other => match other.strip_prefix("cuda:").map(str::parse::<usize>) {
                Some(Ok(i)) => Ok(DeviceChoice::Cuda(i)),
                _ => Err(BadDevice(other.to_owned())),
            },
        }
    }
}

/// One line describing the libtorch runtime, for `koma info` and logs.
pub fn runtime_summary() -> String {
    format!(
        "libtorch: cuda available = {}, cuda devices = {}, cpu threads = {}",
        tch::Cuda::is_available(),
        tch::Cuda::device_count(),
        tch::get_num_threads()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::{Kind, Tensor};

    #[test]
    fn cpu_choice_runs_a_tensor_op() {
        let d = DeviceChoice::Cpu.resolve().unwrap();
        let t = Tensor::arange(6, (Kind::Float, d)).reshape([2, 3]);
        let s = t.sum(Kind::Float).double_value(&[]);
        assert_eq!(s, 15.0);
    }

    #[test]
    fn missing_cuda_device_is_an_error() {
        let n = tch::Cuda::device_count();
        let err = DeviceChoice::Cuda(n as usize + 3).resolve().unwrap_err();
        assert!(err.to_string().contains("requested"));
    }
}

//! Choosing the GPU adapter: which backend, which card, by environment variable or by value.
//!
//! | variable                  | values                         | effect                                   |
//! |---------------------------|--------------------------------|------------------------------------------|
//! | `SHATRANJ_WGPU_BACKEND`   | `vulkan`, `metal`, `dx12`, `gl` | only adapters of that backend            |
//! | `SHATRANJ_WGPU_ADAPTER`   | any text                       | only adapters whose name contains it (case-insensitive) |
//! | `SHATRANJ_WGPU_POWER`     | `high` (default), `low`        | rank discrete GPUs first, or integrated ones |
//!
//! Among the adapters that pass the filters and can run compute shaders, the best ranked by
//! device type wins (software rasterisers such as lavapipe last); ties keep wgpu's order.

use shatranj_engine::eval::EvalError;
use std::fmt;

/// How to pick an adapter; [`AdapterOptions::from_env`] reads the environment variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdapterOptions {
    /// `vulkan`, `metal`, `dx12` or `gl`; `None` for every backend compiled in.
    pub backend: Option<String>,
    /// A substring of the adapter's name.
    pub adapter: Option<String>,
    /// Prefer integrated (low-power) GPUs over discrete ones.
    pub low_power: bool,
}

pub const ENV_BACKEND: &str = "SHATRANJ_WGPU_BACKEND";
pub const ENV_ADAPTER: &str = "SHATRANJ_WGPU_ADAPTER";
pub const ENV_POWER: &str = "SHATRANJ_WGPU_POWER";

impl AdapterOptions {
    /// The options the `SHATRANJ_WGPU_*` variables ask for; an unknown power value is an error
    /// naming the variable.
    pub fn from_env() -> Result<AdapterOptions, EvalError> {
        let var = |name: &str| {
            std::env::var(name)
                .ok()
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let low_power = match var(ENV_POWER).map(|v| v.to_ascii_lowercase()).as_deref() {
            None | Some("high") => false,
            Some("low") => true,
            Some(other) => {
                return Err(EvalError::NoAdapter(format!(
                    "{ENV_POWER}={other:?}: expected high or low"
                )));
            }
        };
        Ok(AdapterOptions {
            backend: var(ENV_BACKEND),
            adapter: var(ENV_ADAPTER),
            low_power,
        })
    }

    /// The wgpu backends these options allow.
    pub fn backends(&self) -> Result<wgpu::Backends, EvalError> {
        let Some(name) = &self.backend else {
            return Ok(wgpu::Backends::all());
        };
        let backends = match name.to_ascii_lowercase().as_str() {
            "vulkan" | "vk" => wgpu::Backends::VULKAN,
            "metal" => wgpu::Backends::METAL,
            "dx12" | "d3d12" => wgpu::Backends::DX12,
            "gl" | "gles" | "opengl" => wgpu::Backends::GL,
            other => {
                return Err(EvalError::NoAdapter(format!(
                    "{ENV_BACKEND}={other:?}: expected vulkan, metal, dx12 or gl"
                )));
            }
        };
        if (wgpu::Instance::enabled_backend_features() & backends).is_empty() {
            return Err(EvalError::NoAdapter(format!(
                "backend {name} is not compiled into this build (shatranj-gpu enables vulkan, \
                 metal and dx12 on their platforms, and gl with the `gl` feature)"
            )));
        }
        Ok(backends)
    }
}

/// What the chosen adapter is: `shatranj.gpu_info()` and the evaluator's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuInfo {
    pub name: String,
    /// `vulkan`, `metal`, `dx12`, `gl`.
    pub backend: String,
    /// `discrete`, `integrated`, `virtual`, `cpu` (software), `other`.
    pub device_type: String,
    pub driver: String,
    pub driver_info: String,
}

impl GpuInfo {
    pub fn from_wgpu(info: &wgpu::AdapterInfo) -> GpuInfo {
        GpuInfo {
            name: info.name.clone(),
            backend: info.backend.to_str().to_owned(),
            device_type: device_type_name(info.device_type).to_owned(),
            driver: info.driver.clone(),
            driver_info: info.driver_info.clone(),
        }
    }

    /// A software implementation (lavapipe, llvmpipe, WARP): correct, but never faster than
    /// the CPU evaluator, so `auto` does not use it.
    pub fn is_software(&self) -> bool {
        self.device_type == "cpu"
    }
}

impl fmt::Display for GpuInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {}", self.name, self.backend, self.device_type)?;
        if !self.driver.is_empty() {
            write!(f, ", {}", self.driver)?;
            if !self.driver_info.is_empty() {
                write!(f, " {}", self.driver_info)?;
            }
        }
        f.write_str(")")
    }
}

pub fn device_type_name(t: wgpu::DeviceType) -> &'static str {
    match t {
        wgpu::DeviceType::DiscreteGpu => "discrete",
        wgpu::DeviceType::IntegratedGpu => "integrated",
        wgpu::DeviceType::VirtualGpu => "virtual",
        wgpu::DeviceType::Cpu => "cpu",
        wgpu::DeviceType::Other => "other",
    }
}

/// Lower is better.
fn rank(t: wgpu::DeviceType, low_power: bool) -> u8 {
    match (t, low_power) {
        (wgpu::DeviceType::DiscreteGpu, false) | (wgpu::DeviceType::IntegratedGpu, true) => 0,
        (wgpu::DeviceType::IntegratedGpu, false) | (wgpu::DeviceType::DiscreteGpu, true) => 1,
        (wgpu::DeviceType::VirtualGpu, _) => 2,
        (wgpu::DeviceType::Other, _) => 3,
        (wgpu::DeviceType::Cpu, _) => 4,
    }
}

/// A wgpu instance for the backends `options` allow.
pub fn instance(options: &AdapterOptions) -> Result<wgpu::Instance, EvalError> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = options.backends()?;
    // Validation layers are for debugging wgpu itself; they are rarely installed and slow.
    desc.flags = wgpu::InstanceFlags::empty();
    Ok(wgpu::Instance::new(desc))
}

/// The adapter `options` select, or [`EvalError::NoAdapter`] saying what was looked for and
/// what exists.
pub fn choose(
    instance: &wgpu::Instance,
    options: &AdapterOptions,
) -> Result<wgpu::Adapter, EvalError> {
    let backends = options.backends()?;
    let adapters = pollster::block_on(instance.enumerate_adapters(backends));
    let seen: Vec<String> = adapters
        .iter()
        .map(|a| GpuInfo::from_wgpu(&a.get_info()).to_string())
        .collect();
    let wanted = options.adapter.as_ref().map(|s| s.to_lowercase());
    let best = adapters
        .into_iter()
        .filter(|a| {
            a.get_downlevel_capabilities()
                .flags
                .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
        })
        .filter(|a| match &wanted {
            Some(w) => a.get_info().name.to_lowercase().contains(w),
            None => true,
        })
        .min_by_key(|a| rank(a.get_info().device_type, options.low_power));
    best.ok_or_else(|| {
        let mut what = String::new();
        if let Some(name) = &options.adapter {
            what += &format!("no adapter name contains {name:?}");
        } else {
            what += "no adapter with compute shaders";
        }
        if let Some(b) = &options.backend {
            what += &format!(" on backend {b}");
        }
        if seen.is_empty() {
            what += "; none found (on Linux without a GPU: apt-get install mesa-vulkan-drivers)";
        } else {
            what += &format!("; found: {}", seen.join("; "));
        }
        EvalError::NoAdapter(what)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_names() {
        let with = |b: &str| AdapterOptions {
            backend: Some(b.into()),
            ..AdapterOptions::default()
        };
        assert_eq!(with("Vulkan").backends(), Ok(wgpu::Backends::VULKAN));
        assert!(
            matches!(with("cuda").backends(), Err(EvalError::NoAdapter(m)) if m.contains("cuda"))
        );
        assert_eq!(
            AdapterOptions::default().backends(),
            Ok(wgpu::Backends::all())
        );
    }

    #[test]
    fn high_power_ranks_discrete_first_and_software_last() {
        use wgpu::DeviceType::*;
        assert!(rank(DiscreteGpu, false) < rank(IntegratedGpu, false));
        assert!(rank(IntegratedGpu, true) < rank(DiscreteGpu, true));
        assert!(rank(Other, false) < rank(Cpu, false));
        assert!(rank(VirtualGpu, true) < rank(Cpu, true));
    }
}

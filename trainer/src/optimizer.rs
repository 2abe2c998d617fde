//! SGD with Nesterov momentum and decoupled weight decay, with its state in named tensors so
//! that a checkpoint can save it and a resumed run continues exactly.

use tch::{nn::VarStore, Tensor};

/// The optimiser: one momentum buffer per trainable variable, by name.
#[derive(Debug)]
pub struct Sgd {
    vars: Vec<(String, Tensor)>,
    bufs: Vec<Tensor>,
    momentum: f64,
    weight_decay: f64,
    /// Gradients are scaled down to this global norm: the policy head's logits are products of
    /// two learned embeddings, and one large step can otherwise feed on itself.
    pub max_grad_norm: f64,
}

impl Sgd {
    /// An optimiser over the trainable variables of `vs`, with zero momentum.
    pub fn new(vs: &VarStore, momentum: f64, weight_decay: f64) -> Sgd {
        let mut vars: Vec<(String, Tensor)> = vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.requires_grad())
            .collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        let bufs = vars.iter().map(|(_, t)| t.zeros_like()).collect();
        Sgd {
            vars,
            bufs,
            momentum,
            weight_decay,
            max_grad_norm: 1.0,
        }
    }

    /// Clears the gradients.
    pub fn zero_grad(&mut self) {
        for (_, v) in self.vars.iter_mut() {
            v.zero_grad();
        }
    }

    /// The global norm of the current gradients.
    pub fn grad_norm(&self) -> f64 {
        tch::no_grad(|| {
            self.vars
                .iter()
                .map(|(_, v)| v.grad())
                .filter(|g| g.defined())
                .map(|g| g.square().sum(tch::Kind::Double).double_value(&[]))
                .sum::<f64>()
                .sqrt()
        })
    }

    /// One update with learning rate `lr`; returns the gradient norm before clipping.
    pub fn step(&mut self, lr: f64) -> f64 {
        let norm = self.grad_norm();
        let scale = if norm.is_finite() && norm > self.max_grad_norm && self.max_grad_norm > 0.0 {
            self.max_grad_norm / norm
        } else if !norm.is_finite() {
            // A non-finite gradient would poison the weights: skip the update.
            return norm;
        } else {
            1.0
        };
        tch::no_grad(|| {
            for ((_, v), buf) in self.vars.iter_mut().zip(self.bufs.iter_mut()) {
                let g = v.grad();
                if !g.defined() {
                    continue;
                }
                let g = g * scale;
                let _ = buf.f_mul_scalar_(self.momentum);
                let _ = buf.f_add_(&g);
                let update = &g + &*buf * self.momentum;
                if self.weight_decay > 0.0 && v.dim() > 1 {
                    let _ = v.f_mul_scalar_(1.0 - lr * self.weight_decay);
                }
                let _ = v.f_sub_(&(update * lr));
            }
        });
        norm
    }

    /// The momentum buffers by variable name.
    pub fn state(&self) -> Vec<(String, &Tensor)> {
        self.vars
            .iter()
            .zip(&self.bufs)
            .map(|((n, _), b)| (n.clone(), b))
            .collect()
    }

    /// Writes the momentum buffers to a safetensors file.
    pub fn save(&self, path: &std::path::Path) -> Result<(), tch::TchError> {
        let named: Vec<(String, Tensor)> = self
            .vars
            .iter()
            .zip(&self.bufs)
            .map(|((n, _), b)| (n.clone(), b.to_device(tch::Device::Cpu)))
            .collect();
        Tensor::write_safetensors(&named, path)
    }

    /// Restores momentum buffers from a safetensors file; every variable must be present.
    pub fn load(&mut self, path: &std::path::Path) -> Result<(), String> {
        let named = Tensor::read_safetensors(path).map_err(|e| e.to_string())?;
        for ((name, _), buf) in self.vars.iter().zip(self.bufs.iter_mut()) {
            let t = named
                .iter()
                .find(|(n, _)| n == name)
                .ok_or_else(|| format!("no momentum for '{name}'"))?;
            if t.1.size() != buf.size() {
                return Err(format!("momentum for '{name}' has the wrong shape"));
            }
            tch::no_grad(|| buf.copy_(&t.1));
        }
        Ok(())
    }
}

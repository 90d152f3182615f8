// Port of Rodinia 3.1 cuda/cfd/euler3d.cu to offload-cxx (see SOURCE.md).
// An unstructured finite-volume Euler solver (Corrigan et al., AIAA-2009-4001): per iteration a
// device-to-device copy, a step-factor kernel, and three Runge-Kutta stages of a flux kernel
// (four neighbours through an index array, far-field constants) and an update kernel.
// usage: rodinia-cfd [nx] [ny] [iterations]   (a generated nx x ny mesh; default 96 64 50;
//        e.g. 384 256 2000 for a GPU run: 98,304 elements, about Rodinia's fvcorr.domn.097K, and
//        the original's 2000 iterations)
#include <offload/offload.hpp>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include <algorithm>
#include <iostream>
#include <vector>

/*
 * Options
 *
 */
#define GAMMA 1.4f
// #define iterations 2000   (the port: an argument)

#define NDIM 3
#define NNB 4

#define RK 3	// 3rd order RK
#define ff_mach 1.2f
#define deg_angle_of_attack 0.0f

/*
 * not options
 */
#define BLOCK_SIZE_0 192
#define BLOCK_SIZE_1 192
#define BLOCK_SIZE_2 192
#define BLOCK_SIZE_3 192
#define BLOCK_SIZE_4 192

#define VAR_DENSITY 0
#define VAR_MOMENTUM  1
#define VAR_DENSITY_ENERGY (VAR_MOMENTUM+NDIM)
#define NVAR (VAR_DENSITY_ENERGY+1)

// CUDA's float3
struct float3 { float x, y, z; };

/*
 * Element-based Cell-centered FVM solver functions
 */
// The original's __constant__ float ff_variable[NVAR] and four __constant__ float3[1], set with
// cudaMemcpyToSymbol: one struct passed by value to the two kernels that read them.
struct far_field {
	float variable[NVAR];
	float3 flux_contribution_momentum_x[1];
	float3 flux_contribution_momentum_y[1];
	float3 flux_contribution_momentum_z[1];
	float3 flux_contribution_density_energy[1];
};

OFFLOAD_KERNEL void cuda_initialize_variables(int nelr, offload::device_ptr<float> variables, far_field ff)
{
	const float *ff_variable = ff.variable;  // the original's __constant__ array, by its name
	const int i = (offload::block_dim_x()*offload::block_id_x() + offload::thread_id_x());
	for(int j = 0; j < NVAR; j++)
		variables[i + j*nelr] = ff_variable[j];
}
void initialize_variables(int nelr, offload::device_ptr<float> variables, const far_field &ff)
{
	offload::launch(cuda_initialize_variables, {.workgroups = {nelr / BLOCK_SIZE_1}, .threads = {BLOCK_SIZE_1}}, nelr, variables, ff);
}

inline void compute_flux_contribution(float& density, float3& momentum, float& density_energy, float& pressure, float3& velocity, float3& fc_momentum_x, float3& fc_momentum_y, float3& fc_momentum_z, float3& fc_density_energy)
{
	fc_momentum_x.x = velocity.x*momentum.x + pressure;
	fc_momentum_x.y = velocity.x*momentum.y;
	fc_momentum_x.z = velocity.x*momentum.z;


	fc_momentum_y.x = fc_momentum_x.y;
	fc_momentum_y.y = velocity.y*momentum.y + pressure;
	fc_momentum_y.z = velocity.y*momentum.z;

	fc_momentum_z.x = fc_momentum_x.z;
	fc_momentum_z.y = fc_momentum_y.z;
	fc_momentum_z.z = velocity.z*momentum.z + pressure;

	float de_p = density_energy+pressure;
	fc_density_energy.x = velocity.x*de_p;
	fc_density_energy.y = velocity.y*de_p;
	fc_density_energy.z = velocity.z*de_p;
}

inline void compute_velocity(float& density, float3& momentum, float3& velocity)
{
	velocity.x = momentum.x / density;
	velocity.y = momentum.y / density;
	velocity.z = momentum.z / density;
}

inline float compute_speed_sqd(float3& velocity)
{
	return velocity.x*velocity.x + velocity.y*velocity.y + velocity.z*velocity.z;
}

inline float compute_pressure(float& density, float& density_energy, float& speed_sqd)
{
	return (float(GAMMA)-float(1.0f))*(density_energy - float(0.5f)*density*speed_sqd);
}

inline float compute_speed_of_sound(float& density, float& pressure)
{
	return sqrtf(float(GAMMA)*pressure/density);
}

OFFLOAD_KERNEL void cuda_compute_step_factor(int nelr, offload::device_ptr<float> variables, offload::device_ptr<float> areas, offload::device_ptr<float> step_factors)
{
	const int i = (offload::block_dim_x()*offload::block_id_x() + offload::thread_id_x());

	float density = variables[i + VAR_DENSITY*nelr];
	float3 momentum;
	momentum.x = variables[i + (VAR_MOMENTUM+0)*nelr];
	momentum.y = variables[i + (VAR_MOMENTUM+1)*nelr];
	momentum.z = variables[i + (VAR_MOMENTUM+2)*nelr];

	float density_energy = variables[i + VAR_DENSITY_ENERGY*nelr];

	float3 velocity;       compute_velocity(density, momentum, velocity);
	float speed_sqd      = compute_speed_sqd(velocity);
	float pressure       = compute_pressure(density, density_energy, speed_sqd);
	float speed_of_sound = compute_speed_of_sound(density, pressure);

	// dt = float(0.5f) * sqrtf(areas[i]) /  (||v|| + c).... but when we do time stepping, this later would need to be divided by the area, so we just do it all at once
	step_factors[i] = float(0.5f) / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
}

/*
 *
 *
*/
OFFLOAD_KERNEL void cuda_compute_flux(int nelr, offload::device_ptr<int> elements_surrounding_elements, offload::device_ptr<float> normals, offload::device_ptr<float> variables, offload::device_ptr<float> fluxes, far_field ff)
{
	// the original's __constant__ arrays, by their names (the port passes them as a value)
	const float *ff_variable = ff.variable;
	const float3 *ff_flux_contribution_momentum_x = ff.flux_contribution_momentum_x;
	const float3 *ff_flux_contribution_momentum_y = ff.flux_contribution_momentum_y;
	const float3 *ff_flux_contribution_momentum_z = ff.flux_contribution_momentum_z;
	const float3 *ff_flux_contribution_density_energy = ff.flux_contribution_density_energy;
	const float smoothing_coefficient = float(0.2f);
	const int i = (offload::block_dim_x()*offload::block_id_x() + offload::thread_id_x());

	int j, nb;
	float3 normal; float normal_len;
	float factor;

	float density_i = variables[i + VAR_DENSITY*nelr];
	float3 momentum_i;
	momentum_i.x = variables[i + (VAR_MOMENTUM+0)*nelr];
	momentum_i.y = variables[i + (VAR_MOMENTUM+1)*nelr];
	momentum_i.z = variables[i + (VAR_MOMENTUM+2)*nelr];

	float density_energy_i = variables[i + VAR_DENSITY_ENERGY*nelr];

	float3 velocity_i;             				compute_velocity(density_i, momentum_i, velocity_i);
	float speed_sqd_i                          = compute_speed_sqd(velocity_i);
	float speed_i                              = sqrtf(speed_sqd_i);
	float pressure_i                           = compute_pressure(density_i, density_energy_i, speed_sqd_i);
	float speed_of_sound_i                     = compute_speed_of_sound(density_i, pressure_i);
	float3 flux_contribution_i_momentum_x, flux_contribution_i_momentum_y, flux_contribution_i_momentum_z;
	float3 flux_contribution_i_density_energy;
	compute_flux_contribution(density_i, momentum_i, density_energy_i, pressure_i, velocity_i, flux_contribution_i_momentum_x, flux_contribution_i_momentum_y, flux_contribution_i_momentum_z, flux_contribution_i_density_energy);

	float flux_i_density = float(0.0f);
	float3 flux_i_momentum;
	flux_i_momentum.x = float(0.0f);
	flux_i_momentum.y = float(0.0f);
	flux_i_momentum.z = float(0.0f);
	float flux_i_density_energy = float(0.0f);

	float3 velocity_nb;
	float density_nb, density_energy_nb;
	float3 momentum_nb;
	float3 flux_contribution_nb_momentum_x, flux_contribution_nb_momentum_y, flux_contribution_nb_momentum_z;
	float3 flux_contribution_nb_density_energy;
	float speed_sqd_nb, speed_of_sound_nb, pressure_nb;

	#pragma unroll
	for(j = 0; j < NNB; j++)
	{
		nb = elements_surrounding_elements[i + j*nelr];
		normal.x = normals[i + (j + 0*NNB)*nelr];
		normal.y = normals[i + (j + 1*NNB)*nelr];
		normal.z = normals[i + (j + 2*NNB)*nelr];
		normal_len = sqrtf(normal.x*normal.x + normal.y*normal.y + normal.z*normal.z);

		if(nb >= 0) 	// a legitimate neighbor
		{
			density_nb = variables[nb + VAR_DENSITY*nelr];
			momentum_nb.x = variables[nb + (VAR_MOMENTUM+0)*nelr];
			momentum_nb.y = variables[nb + (VAR_MOMENTUM+1)*nelr];
			momentum_nb.z = variables[nb + (VAR_MOMENTUM+2)*nelr];
			density_energy_nb = variables[nb + VAR_DENSITY_ENERGY*nelr];
												compute_velocity(density_nb, momentum_nb, velocity_nb);
			speed_sqd_nb                      = compute_speed_sqd(velocity_nb);
			pressure_nb                       = compute_pressure(density_nb, density_energy_nb, speed_sqd_nb);
			speed_of_sound_nb                 = compute_speed_of_sound(density_nb, pressure_nb);
			                                    compute_flux_contribution(density_nb, momentum_nb, density_energy_nb, pressure_nb, velocity_nb, flux_contribution_nb_momentum_x, flux_contribution_nb_momentum_y, flux_contribution_nb_momentum_z, flux_contribution_nb_density_energy);

			// artificial viscosity
			factor = -normal_len*smoothing_coefficient*float(0.5f)*(speed_i + sqrtf(speed_sqd_nb) + speed_of_sound_i + speed_of_sound_nb);
			flux_i_density += factor*(density_i-density_nb);
			flux_i_density_energy += factor*(density_energy_i-density_energy_nb);
			flux_i_momentum.x += factor*(momentum_i.x-momentum_nb.x);
			flux_i_momentum.y += factor*(momentum_i.y-momentum_nb.y);
			flux_i_momentum.z += factor*(momentum_i.z-momentum_nb.z);

			// accumulate cell-centered fluxes
			factor = float(0.5f)*normal.x;
			flux_i_density += factor*(momentum_nb.x+momentum_i.x);
			flux_i_density_energy += factor*(flux_contribution_nb_density_energy.x+flux_contribution_i_density_energy.x);
			flux_i_momentum.x += factor*(flux_contribution_nb_momentum_x.x+flux_contribution_i_momentum_x.x);
			flux_i_momentum.y += factor*(flux_contribution_nb_momentum_y.x+flux_contribution_i_momentum_y.x);
			flux_i_momentum.z += factor*(flux_contribution_nb_momentum_z.x+flux_contribution_i_momentum_z.x);

			factor = float(0.5f)*normal.y;
			flux_i_density += factor*(momentum_nb.y+momentum_i.y);
			flux_i_density_energy += factor*(flux_contribution_nb_density_energy.y+flux_contribution_i_density_energy.y);
			flux_i_momentum.x += factor*(flux_contribution_nb_momentum_x.y+flux_contribution_i_momentum_x.y);
			flux_i_momentum.y += factor*(flux_contribution_nb_momentum_y.y+flux_contribution_i_momentum_y.y);
			flux_i_momentum.z += factor*(flux_contribution_nb_momentum_z.y+flux_contribution_i_momentum_z.y);

			factor = float(0.5f)*normal.z;
			flux_i_density += factor*(momentum_nb.z+momentum_i.z);
			flux_i_density_energy += factor*(flux_contribution_nb_density_energy.z+flux_contribution_i_density_energy.z);
			flux_i_momentum.x += factor*(flux_contribution_nb_momentum_x.z+flux_contribution_i_momentum_x.z);
			flux_i_momentum.y += factor*(flux_contribution_nb_momentum_y.z+flux_contribution_i_momentum_y.z);
			flux_i_momentum.z += factor*(flux_contribution_nb_momentum_z.z+flux_contribution_i_momentum_z.z);
		}
		else if(nb == -1)	// a wing boundary
		{
			flux_i_momentum.x += normal.x*pressure_i;
			flux_i_momentum.y += normal.y*pressure_i;
			flux_i_momentum.z += normal.z*pressure_i;
		}
		else if(nb == -2) // a far field boundary
		{
			factor = float(0.5f)*normal.x;
			flux_i_density += factor*(ff_variable[VAR_MOMENTUM+0]+momentum_i.x);
			flux_i_density_energy += factor*(ff_flux_contribution_density_energy[0].x+flux_contribution_i_density_energy.x);
			flux_i_momentum.x += factor*(ff_flux_contribution_momentum_x[0].x + flux_contribution_i_momentum_x.x);
			flux_i_momentum.y += factor*(ff_flux_contribution_momentum_y[0].x + flux_contribution_i_momentum_y.x);
			flux_i_momentum.z += factor*(ff_flux_contribution_momentum_z[0].x + flux_contribution_i_momentum_z.x);

			factor = float(0.5f)*normal.y;
			flux_i_density += factor*(ff_variable[VAR_MOMENTUM+1]+momentum_i.y);
			flux_i_density_energy += factor*(ff_flux_contribution_density_energy[0].y+flux_contribution_i_density_energy.y);
			flux_i_momentum.x += factor*(ff_flux_contribution_momentum_x[0].y + flux_contribution_i_momentum_x.y);
			flux_i_momentum.y += factor*(ff_flux_contribution_momentum_y[0].y + flux_contribution_i_momentum_y.y);
			flux_i_momentum.z += factor*(ff_flux_contribution_momentum_z[0].y + flux_contribution_i_momentum_z.y);

			factor = float(0.5f)*normal.z;
			flux_i_density += factor*(ff_variable[VAR_MOMENTUM+2]+momentum_i.z);
			flux_i_density_energy += factor*(ff_flux_contribution_density_energy[0].z+flux_contribution_i_density_energy.z);
			flux_i_momentum.x += factor*(ff_flux_contribution_momentum_x[0].z + flux_contribution_i_momentum_x.z);
			flux_i_momentum.y += factor*(ff_flux_contribution_momentum_y[0].z + flux_contribution_i_momentum_y.z);
			flux_i_momentum.z += factor*(ff_flux_contribution_momentum_z[0].z + flux_contribution_i_momentum_z.z);

		}
	}

	fluxes[i + VAR_DENSITY*nelr] = flux_i_density;
	fluxes[i + (VAR_MOMENTUM+0)*nelr] = flux_i_momentum.x;
	fluxes[i + (VAR_MOMENTUM+1)*nelr] = flux_i_momentum.y;
	fluxes[i + (VAR_MOMENTUM+2)*nelr] = flux_i_momentum.z;
	fluxes[i + VAR_DENSITY_ENERGY*nelr] = flux_i_density_energy;
}

OFFLOAD_KERNEL void cuda_time_step(int j, int nelr, offload::device_ptr<float> old_variables, offload::device_ptr<float> variables, offload::device_ptr<float> step_factors, offload::device_ptr<float> fluxes)
{
	const int i = (offload::block_dim_x()*offload::block_id_x() + offload::thread_id_x());

	float factor = step_factors[i]/float(RK+1-j);

	variables[i + VAR_DENSITY*nelr] = old_variables[i + VAR_DENSITY*nelr] + factor*fluxes[i + VAR_DENSITY*nelr];
	variables[i + VAR_DENSITY_ENERGY*nelr] = old_variables[i + VAR_DENSITY_ENERGY*nelr] + factor*fluxes[i + VAR_DENSITY_ENERGY*nelr];
	variables[i + (VAR_MOMENTUM+0)*nelr] = old_variables[i + (VAR_MOMENTUM+0)*nelr] + factor*fluxes[i + (VAR_MOMENTUM+0)*nelr];
	variables[i + (VAR_MOMENTUM+1)*nelr] = old_variables[i + (VAR_MOMENTUM+1)*nelr] + factor*fluxes[i + (VAR_MOMENTUM+1)*nelr];
	variables[i + (VAR_MOMENTUM+2)*nelr] = old_variables[i + (VAR_MOMENTUM+2)*nelr] + factor*fluxes[i + (VAR_MOMENTUM+2)*nelr];
}

// (cuda_compute_flux's body as a host function of element i, for the check)
inline void host_flux(const int i, int nelr, const int *elements_surrounding_elements, const float *normals, const float *variables, float *fluxes, const far_field &ff)
{
	// the original's __constant__ arrays, by their names (the port passes them as a value)
	const float *ff_variable = ff.variable;
	const float3 *ff_flux_contribution_momentum_x = ff.flux_contribution_momentum_x;
	const float3 *ff_flux_contribution_momentum_y = ff.flux_contribution_momentum_y;
	const float3 *ff_flux_contribution_momentum_z = ff.flux_contribution_momentum_z;
	const float3 *ff_flux_contribution_density_energy = ff.flux_contribution_density_energy;
	const float smoothing_coefficient = float(0.2f);

	int j, nb;
	float3 normal; float normal_len;
	float factor;

	float density_i = variables[i + VAR_DENSITY*nelr];
	float3 momentum_i;
	momentum_i.x = variables[i + (VAR_MOMENTUM+0)*nelr];
	momentum_i.y = variables[i + (VAR_MOMENTUM+1)*nelr];
	momentum_i.z = variables[i + (VAR_MOMENTUM+2)*nelr];

	float density_energy_i = variables[i + VAR_DENSITY_ENERGY*nelr];

	float3 velocity_i;             				compute_velocity(density_i, momentum_i, velocity_i);
	float speed_sqd_i                          = compute_speed_sqd(velocity_i);
	float speed_i                              = sqrtf(speed_sqd_i);
	float pressure_i                           = compute_pressure(density_i, density_energy_i, speed_sqd_i);
	float speed_of_sound_i                     = compute_speed_of_sound(density_i, pressure_i);
	float3 flux_contribution_i_momentum_x, flux_contribution_i_momentum_y, flux_contribution_i_momentum_z;
	float3 flux_contribution_i_density_energy;
	compute_flux_contribution(density_i, momentum_i, density_energy_i, pressure_i, velocity_i, flux_contribution_i_momentum_x, flux_contribution_i_momentum_y, flux_contribution_i_momentum_z, flux_contribution_i_density_energy);

	float flux_i_density = float(0.0f);
	float3 flux_i_momentum;
	flux_i_momentum.x = float(0.0f);
	flux_i_momentum.y = float(0.0f);
	flux_i_momentum.z = float(0.0f);
	float flux_i_density_energy = float(0.0f);

	float3 velocity_nb;
	float density_nb, density_energy_nb;
	float3 momentum_nb;
	float3 flux_contribution_nb_momentum_x, flux_contribution_nb_momentum_y, flux_contribution_nb_momentum_z;
	float3 flux_contribution_nb_density_energy;
	float speed_sqd_nb, speed_of_sound_nb, pressure_nb;

	#pragma unroll
	for(j = 0; j < NNB; j++)
	{
		nb = elements_surrounding_elements[i + j*nelr];
		normal.x = normals[i + (j + 0*NNB)*nelr];
		normal.y = normals[i + (j + 1*NNB)*nelr];
		normal.z = normals[i + (j + 2*NNB)*nelr];
		normal_len = sqrtf(normal.x*normal.x + normal.y*normal.y + normal.z*normal.z);

		if(nb >= 0) 	// a legitimate neighbor
		{
			density_nb = variables[nb + VAR_DENSITY*nelr];
			momentum_nb.x = variables[nb + (VAR_MOMENTUM+0)*nelr];
			momentum_nb.y = variables[nb + (VAR_MOMENTUM+1)*nelr];
			momentum_nb.z = variables[nb + (VAR_MOMENTUM+2)*nelr];
			density_energy_nb = variables[nb + VAR_DENSITY_ENERGY*nelr];
												compute_velocity(density_nb, momentum_nb, velocity_nb);
			speed_sqd_nb                      = compute_speed_sqd(velocity_nb);
			pressure_nb                       = compute_pressure(density_nb, density_energy_nb, speed_sqd_nb);
			speed_of_sound_nb                 = compute_speed_of_sound(density_nb, pressure_nb);
			                                    compute_flux_contribution(density_nb, momentum_nb, density_energy_nb, pressure_nb, velocity_nb, flux_contribution_nb_momentum_x, flux_contribution_nb_momentum_y, flux_contribution_nb_momentum_z, flux_contribution_nb_density_energy);

			// artificial viscosity
			factor = -normal_len*smoothing_coefficient*float(0.5f)*(speed_i + sqrtf(speed_sqd_nb) + speed_of_sound_i + speed_of_sound_nb);
			flux_i_density += factor*(density_i-density_nb);
			flux_i_density_energy += factor*(density_energy_i-density_energy_nb);
			flux_i_momentum.x += factor*(momentum_i.x-momentum_nb.x);
			flux_i_momentum.y += factor*(momentum_i.y-momentum_nb.y);
			flux_i_momentum.z += factor*(momentum_i.z-momentum_nb.z);

			// accumulate cell-centered fluxes
			factor = float(0.5f)*normal.x;
			flux_i_density += factor*(momentum_nb.x+momentum_i.x);
			flux_i_density_energy += factor*(flux_contribution_nb_density_energy.x+flux_contribution_i_density_energy.x);
			flux_i_momentum.x += factor*(flux_contribution_nb_momentum_x.x+flux_contribution_i_momentum_x.x);
			flux_i_momentum.y += factor*(flux_contribution_nb_momentum_y.x+flux_contribution_i_momentum_y.x);
			flux_i_momentum.z += factor*(flux_contribution_nb_momentum_z.x+flux_contribution_i_momentum_z.x);

			factor = float(0.5f)*normal.y;
			flux_i_density += factor*(momentum_nb.y+momentum_i.y);
			flux_i_density_energy += factor*(flux_contribution_nb_density_energy.y+flux_contribution_i_density_energy.y);
			flux_i_momentum.x += factor*(flux_contribution_nb_momentum_x.y+flux_contribution_i_momentum_x.y);
			flux_i_momentum.y += factor*(flux_contribution_nb_momentum_y.y+flux_contribution_i_momentum_y.y);
			flux_i_momentum.z += factor*(flux_contribution_nb_momentum_z.y+flux_contribution_i_momentum_z.y);

			factor = float(0.5f)*normal.z;
			flux_i_density += factor*(momentum_nb.z+momentum_i.z);
			flux_i_density_energy += factor*(flux_contribution_nb_density_energy.z+flux_contribution_i_density_energy.z);
			flux_i_momentum.x += factor*(flux_contribution_nb_momentum_x.z+flux_contribution_i_momentum_x.z);
			flux_i_momentum.y += factor*(flux_contribution_nb_momentum_y.z+flux_contribution_i_momentum_y.z);
			flux_i_momentum.z += factor*(flux_contribution_nb_momentum_z.z+flux_contribution_i_momentum_z.z);
		}
		else if(nb == -1)	// a wing boundary
		{
			flux_i_momentum.x += normal.x*pressure_i;
			flux_i_momentum.y += normal.y*pressure_i;
			flux_i_momentum.z += normal.z*pressure_i;
		}
		else if(nb == -2) // a far field boundary
		{
			factor = float(0.5f)*normal.x;
			flux_i_density += factor*(ff_variable[VAR_MOMENTUM+0]+momentum_i.x);
			flux_i_density_energy += factor*(ff_flux_contribution_density_energy[0].x+flux_contribution_i_density_energy.x);
			flux_i_momentum.x += factor*(ff_flux_contribution_momentum_x[0].x + flux_contribution_i_momentum_x.x);
			flux_i_momentum.y += factor*(ff_flux_contribution_momentum_y[0].x + flux_contribution_i_momentum_y.x);
			flux_i_momentum.z += factor*(ff_flux_contribution_momentum_z[0].x + flux_contribution_i_momentum_z.x);

			factor = float(0.5f)*normal.y;
			flux_i_density += factor*(ff_variable[VAR_MOMENTUM+1]+momentum_i.y);
			flux_i_density_energy += factor*(ff_flux_contribution_density_energy[0].y+flux_contribution_i_density_energy.y);
			flux_i_momentum.x += factor*(ff_flux_contribution_momentum_x[0].y + flux_contribution_i_momentum_x.y);
			flux_i_momentum.y += factor*(ff_flux_contribution_momentum_y[0].y + flux_contribution_i_momentum_y.y);
			flux_i_momentum.z += factor*(ff_flux_contribution_momentum_z[0].y + flux_contribution_i_momentum_z.y);

			factor = float(0.5f)*normal.z;
			flux_i_density += factor*(ff_variable[VAR_MOMENTUM+2]+momentum_i.z);
			flux_i_density_energy += factor*(ff_flux_contribution_density_energy[0].z+flux_contribution_i_density_energy.z);
			flux_i_momentum.x += factor*(ff_flux_contribution_momentum_x[0].z + flux_contribution_i_momentum_x.z);
			flux_i_momentum.y += factor*(ff_flux_contribution_momentum_y[0].z + flux_contribution_i_momentum_y.z);
			flux_i_momentum.z += factor*(ff_flux_contribution_momentum_z[0].z + flux_contribution_i_momentum_z.z);

		}
	}

	fluxes[i + VAR_DENSITY*nelr] = flux_i_density;
	fluxes[i + (VAR_MOMENTUM+0)*nelr] = flux_i_momentum.x;
	fluxes[i + (VAR_MOMENTUM+1)*nelr] = flux_i_momentum.y;
	fluxes[i + (VAR_MOMENTUM+2)*nelr] = flux_i_momentum.z;
	fluxes[i + VAR_DENSITY_ENERGY*nelr] = flux_i_density_energy;
}

void compute_step_factor(int nelr, offload::device_ptr<float> variables, offload::device_ptr<float> areas, offload::device_ptr<float> step_factors)
{
	offload::launch(cuda_compute_step_factor, {.workgroups = {nelr / BLOCK_SIZE_2}, .threads = {BLOCK_SIZE_2}}, nelr, variables, areas, step_factors);
}

void compute_flux(int nelr, offload::device_ptr<int> elements_surrounding_elements, offload::device_ptr<float> normals, offload::device_ptr<float> variables, offload::device_ptr<float> fluxes, const far_field &ff)
{
	offload::launch(cuda_compute_flux, {.workgroups = {nelr / BLOCK_SIZE_3}, .threads = {BLOCK_SIZE_3}}, nelr, elements_surrounding_elements, normals, variables, fluxes, ff);
}

void time_step(int j, int nelr, offload::device_ptr<float> old_variables, offload::device_ptr<float> variables, offload::device_ptr<float> step_factors, offload::device_ptr<float> fluxes)
{
	offload::launch(cuda_time_step, {.workgroups = {nelr / BLOCK_SIZE_4}, .threads = {BLOCK_SIZE_4}}, j, nelr, old_variables, variables, step_factors, fluxes);
}

// The original reads the mesh from a file (fvcorr.domn.097K: per element its volume, then per
// face the neighbour in Fortran numbering, 0 for the wing, negative for the far field, and the
// face's outward normal). The port generates a mesh in that form, as the reader leaves it in
// memory: an nx x ny grid of cells of volume 4, faces +x, -x, +y, -y with unit normals,
// far field on every side but the middle half of the -y side, which is wing, sloping up (its
// faces' outward normal is (0.05, -1, 0)).
// bench/corpus/rodinia/inputs.c writes the same mesh as a file of the original's format.
void generate_mesh(int nx, int ny, int nelr, float *h_areas, int *h_elements_surrounding_elements, float *h_normals)
{
	const int dxs[NNB] = {1, -1, 0, 0}, dys[NNB] = {0, 0, 1, -1};
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++) {
			int i = y * nx + x;
			h_areas[i] = 4.0f;
			for (int j = 0; j < NNB; j++) {
				int X = x + dxs[j], Y = y + dys[j];
				int nb;  // as the reader leaves it: an index, -1 (wing) or -2 (far field)
				if (X >= 0 && X < nx && Y >= 0 && Y < ny) nb = Y * nx + X;
				else if (Y < 0 && x >= nx / 4 && x < 3 * nx / 4) nb = -1;
				else nb = -2;
				h_elements_surrounding_elements[i + j*nelr] = nb;
				// the reader negates the file's outward normals; a wing face slopes (outward
				// normal (0.05, -1, 0)), so that the flow is disturbed there
				h_normals[i + (j + 0*NNB)*nelr] = nb == -1 ? -0.05f : -(float)dxs[j];
				h_normals[i + (j + 1*NNB)*nelr] = -(float)dys[j];
				h_normals[i + (j + 2*NNB)*nelr] = -0.0f;
			}
		}
}

// The port's check: the same iterations on the host, kernel by kernel, element by element.
void host_run(int nelr, int iterations, const far_field &ff, const float *areas, const int *ese, const float *normals, std::vector<float> &variables)
{
	std::vector<float> old_variables(variables.size()), fluxes(variables.size()), step_factors(nelr);
	for (int i = 0; i < nelr; i++)
		for (int j = 0; j < NVAR; j++) variables[i + j*nelr] = ff.variable[j];
	for (int it = 0; it < iterations; it++) {
		old_variables = variables;
		for (int i = 0; i < nelr; i++) {
			float density = variables[i + VAR_DENSITY*nelr];
			float3 momentum = {variables[i + (VAR_MOMENTUM+0)*nelr], variables[i + (VAR_MOMENTUM+1)*nelr], variables[i + (VAR_MOMENTUM+2)*nelr]};
			float density_energy = variables[i + VAR_DENSITY_ENERGY*nelr];
			float3 velocity;       compute_velocity(density, momentum, velocity);
			float speed_sqd      = compute_speed_sqd(velocity);
			float pressure       = compute_pressure(density, density_energy, speed_sqd);
			float speed_of_sound = compute_speed_of_sound(density, pressure);
			step_factors[i] = float(0.5f) / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
		}
		for (int j = 0; j < RK; j++) {
			for (int i = 0; i < nelr; i++)
				host_flux(i, nelr, ese, normals, variables.data(), fluxes.data(), ff);
			for (int i = 0; i < nelr; i++) {
				float factor = step_factors[i]/float(RK+1-j);
				for (int v = 0; v < NVAR; v++)
					variables[i + v*nelr] = old_variables[i + v*nelr] + factor*fluxes[i + v*nelr];
			}
		}
	}
}

double get_ms(const timeval &a, const timeval &b) { return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_usec - a.tv_usec) * 1e-3; }

/*
 * Main function
 */
int main(int argc, char** argv)
{
  printf("WG size of kernel:initialize = %d, WG size of kernel:compute_step_factor = %d, WG size of kernel:compute_flux = %d, WG size of kernel:time_step = %d\n", BLOCK_SIZE_1, BLOCK_SIZE_2, BLOCK_SIZE_3, BLOCK_SIZE_4);

	// The original takes the mesh file; the port the mesh's size and the number of iterations
	// (the original's 2000 is a #define).
	const int mesh_nx = argc > 1 ? atoi(argv[1]) : 96, mesh_ny = argc > 2 ? atoi(argv[2]) : 64;
	const int iterations = argc > 3 ? atoi(argv[3]) : 50;
	if (mesh_nx < 4 || mesh_ny < 1 || iterations < 1) {
		printf("rodinia-cfd: FAIL bad arguments\n");
		return 1;
	}

	// set far field conditions and load them into constant memory on the gpu
	far_field ff;
	{
		float h_ff_variable[NVAR];
		const float angle_of_attack = float(3.1415926535897931 / 180.0f) * float(deg_angle_of_attack);

		h_ff_variable[VAR_DENSITY] = float(1.4);

		float ff_pressure = float(1.0f);
		float ff_speed_of_sound = sqrt(GAMMA*ff_pressure / h_ff_variable[VAR_DENSITY]);
		float ff_speed = float(ff_mach)*ff_speed_of_sound;

		float3 ff_velocity;
		ff_velocity.x = ff_speed*float(cos((float)angle_of_attack));
		ff_velocity.y = ff_speed*float(sin((float)angle_of_attack));
		ff_velocity.z = 0.0f;

		h_ff_variable[VAR_MOMENTUM+0] = h_ff_variable[VAR_DENSITY] * ff_velocity.x;
		h_ff_variable[VAR_MOMENTUM+1] = h_ff_variable[VAR_DENSITY] * ff_velocity.y;
		h_ff_variable[VAR_MOMENTUM+2] = h_ff_variable[VAR_DENSITY] * ff_velocity.z;

		h_ff_variable[VAR_DENSITY_ENERGY] = h_ff_variable[VAR_DENSITY]*(float(0.5f)*(ff_speed*ff_speed)) + (ff_pressure / float(GAMMA-1.0f));

		float3 h_ff_momentum;
		h_ff_momentum.x = *(h_ff_variable+VAR_MOMENTUM+0);
		h_ff_momentum.y = *(h_ff_variable+VAR_MOMENTUM+1);
		h_ff_momentum.z = *(h_ff_variable+VAR_MOMENTUM+2);
		float3 h_ff_flux_contribution_momentum_x;
		float3 h_ff_flux_contribution_momentum_y;
		float3 h_ff_flux_contribution_momentum_z;
		float3 h_ff_flux_contribution_density_energy;
		compute_flux_contribution(h_ff_variable[VAR_DENSITY], h_ff_momentum, h_ff_variable[VAR_DENSITY_ENERGY], ff_pressure, ff_velocity, h_ff_flux_contribution_momentum_x, h_ff_flux_contribution_momentum_y, h_ff_flux_contribution_momentum_z, h_ff_flux_contribution_density_energy);

		// copy far field conditions to the gpu (cudaMemcpyToSymbol): here into the struct
		std::copy(h_ff_variable, h_ff_variable + NVAR, ff.variable);
		ff.flux_contribution_momentum_x[0] = h_ff_flux_contribution_momentum_x;
		ff.flux_contribution_momentum_y[0] = h_ff_flux_contribution_momentum_y;
		ff.flux_contribution_momentum_z[0] = h_ff_flux_contribution_momentum_z;
		ff.flux_contribution_density_energy[0] = h_ff_flux_contribution_density_energy;
	}
	int nel;
	int nelr;

	// read in domain geometry (the port: generate it)
	nel = mesh_nx * mesh_ny;
	nelr = BLOCK_SIZE_0*((nel / BLOCK_SIZE_0 )+ std::min(1, nel % BLOCK_SIZE_0));
	// (the original: new float[...] uninitialised; see SOURCE.md for the padding)
	std::vector<float> h_areas(nelr), h_normals((size_t)nelr*NDIM*NNB);
	std::vector<int> h_elements_surrounding_elements((size_t)nelr*NNB);
	generate_mesh(mesh_nx, mesh_ny, nelr, h_areas.data(), h_elements_surrounding_elements.data(), h_normals.data());

	// fill in remaining data
	int last = nel-1;
	for(int i = nel; i < nelr; i++)
	{
		h_areas[i] = h_areas[last];
		for(int j = 0; j < NNB; j++)
		{
			// duplicate the last element
			h_elements_surrounding_elements[i + j*nelr] = h_elements_surrounding_elements[last + j*nelr];
			for(int k = 0; k < NDIM; k++) h_normals[last + (j + k*NNB)*nelr] = h_normals[last + (j + k*NNB)*nelr];
		}
	}

	offload::buffer<float> areas(nelr);
	areas.copy_from(h_areas);

	offload::buffer<int> elements_surrounding_elements(nelr*NNB);
	elements_surrounding_elements.copy_from(h_elements_surrounding_elements);

	offload::buffer<float> normals(nelr*NDIM*NNB);
	normals.copy_from(h_normals);

	// Create arrays and set initial conditions
	offload::buffer<float> variables(nelr*NVAR);
	initialize_variables(nelr, variables.data(), ff);

	offload::buffer<float> old_variables(nelr*NVAR);
	offload::buffer<float> fluxes(nelr*NVAR);
	offload::buffer<float> step_factors(nelr);

	// make sure all memory is floatly allocated before we start timing
	initialize_variables(nelr, old_variables.data(), ff);
	initialize_variables(nelr, fluxes.data(), ff);
	step_factors.copy_from(std::vector<float>(nelr, 0.0f));  // cudaMemset
	// make sure CUDA isn't still doing something before we start timing
	offload::synchronize();

	// these need to be computed the first time in order to compute time step
	std::cout << "Starting..." << std::endl;

	// run: the original's loop (the check runs it again with fewer iterations)
	auto run = [&](int n) {
		for(int i = 0; i < n; i++)
		{
			offload::copy(old_variables, 0, variables, 0, nelr*NVAR);  // copy<float>: device to device

			// for the first iteration we compute the time step
			compute_step_factor(nelr, variables.data(), areas.data(), step_factors.data());

			for(int j = 0; j < RK; j++)
			{
				compute_flux(nelr, elements_surrounding_elements.data(), normals.data(), variables.data(), fluxes.data(), ff);
				time_step(j, nelr, old_variables.data(), variables.data(), step_factors.data(), fluxes.data());
			}
		}
		offload::synchronize();
	};
	timeval t0, t1;  // the original: a cuda-samples StopWatch around the loop
	gettimeofday(&t0, NULL);
	run(iterations);
	gettimeofday(&t1, NULL);
	double ms = get_ms(t0, t1);

	std::cout  << (ms/1000.0)  / iterations << " seconds per iteration" << std::endl;
	printf("time_ms: %f (%d iterations)\n", ms, iterations);

	// The original dumps the solution into three files; the port checks it instead: the timed
	// run's result must be finite, and a second run of min(iterations, 20) iterations from the
	// start must agree with the same iterations on the host.
	std::vector<float> result((size_t)nelr*NVAR);
	variables.copy_to(result);
	int bad = 0;
	for (int i = 0; i < nel; i++)
		for (int v = 0; v < NVAR; v++)
			if (!std::isfinite(result[i + v*nelr])) bad++;
	printf("%d of %d values of the timed run are not finite\n", bad, nel * NVAR);
	const int check_iterations = std::min(iterations, 20);
	initialize_variables(nelr, variables.data(), ff);
	run(check_iterations);
	variables.copy_to(result);
	std::vector<float> ref((size_t)nelr*NVAR);
	host_run(nelr, check_iterations, ff, h_areas.data(), h_elements_surrounding_elements.data(), h_normals.data(), ref);
	double worst = 0, change = 0;
	for (int i = 0; i < nel; i++)
		for (int v = 0; v < NVAR; v++) {
			double r = ref[i + v*nelr], d = result[i + v*nelr];
			worst = std::max(worst, std::fabs(d - r) / std::max(1.0, std::fabs(r)));
			change = std::max(change, std::fabs(r - ff.variable[v]) / std::max(1.0, std::fabs((double)ff.variable[v])));
		}
	printf("after %d iterations: largest difference from the host's %g; largest change from the free stream %g\n",
	       check_iterations, worst, change);
	if (!(worst <= 1e-4) || !(change > 1e-3)) bad++;

	std::cout << "Done..." << std::endl;
	if (bad) {
		printf("rodinia-cfd: FAIL the device's solution differs from the host's\n");
		return 1;
	}
	printf("rodinia-cfd: PASS\n");
	return 0;
}
